import { expect, type Locator, type Page } from '@playwright/test';
import { writeFromPage } from '../support/same-origin';

export interface TodoRow {
  text: string;
  depth: number;
  done: boolean;
}

export interface PreferenceRow {
  text: string;
  locked: boolean;
}

/** The studio page: history, chat and workspace, addressed by data-testid only. */
export class StudioPage {
  constructor(readonly page: Page) {}

  byTestId(id: string): Locator {
    return this.page.getByTestId(id);
  }

  get conversationItems(): Locator {
    return this.byTestId('conversation-item');
  }
  get userMessages(): Locator {
    return this.byTestId('message-user');
  }
  /** Assistant messages read back from the transcript (the streamed bubble is replaced by them). */
  get storedReplies(): Locator {
    return this.page.locator('[data-testid="message-assistant"][data-status="complete"]');
  }
  get toolChips(): Locator {
    return this.byTestId('tool-chip');
  }
  get todoItems(): Locator {
    return this.byTestId('todo-item');
  }
  get preferenceItems(): Locator {
    return this.byTestId('preference-item');
  }
  get artifactItems(): Locator {
    return this.byTestId('artifact-item');
  }

  /**
   * Delays each server-sent event of a turn in the browser (like network
   * throttling), so what the page shows while a reply streams can be observed
   * even though the offline model answers at once. Call before navigating.
   */
  async throttleTurnStreams(delayMs: number): Promise<void> {
    await this.page.addInitScript((delay: number) => {
      const original = window.fetch.bind(window);
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await original(input, init);
        const url = new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          location.href,
        );
        const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
        if (
          method !== 'POST' ||
          !/^\/api\/conversations\/[^/]+\/messages$/.test(url.pathname) ||
          !response.ok ||
          !response.body
        )
          return response;
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        const encoder = new TextEncoder();
        let buffer = '';
        const slowed = new ReadableStream<Uint8Array>({
          async pull(controller) {
            for (;;) {
              const end = buffer.indexOf('\n\n');
              if (end !== -1) {
                const event = buffer.slice(0, end + 2);
                buffer = buffer.slice(end + 2);
                await new Promise((resolve) => setTimeout(resolve, delay));
                controller.enqueue(encoder.encode(event));
                return;
              }
              const { done, value } = await reader.read();
              if (done) {
                if (buffer) controller.enqueue(encoder.encode(buffer));
                controller.close();
                return;
              }
              buffer += decoder.decode(value, { stream: true });
            }
          },
          cancel: (reason) => reader.cancel(reason),
        });
        return new Response(slowed, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      };
    }, delayMs);
  }

  async newConversation(): Promise<string> {
    const before = this.page.url();
    await this.byTestId('new-conversation').click();
    await this.page.waitForURL((url) => url.href !== before && /^\/c\/th_[0-9a-f]{32}$/.test(url.pathname));
    await this.byTestId('chat-empty').waitFor();
    return this.threadId();
  }

  threadId(): string {
    const match = /\/c\/(th_[0-9a-f]{32})/.exec(new URL(this.page.url()).pathname);
    if (!match?.[1]) throw new Error(`no thread in ${this.page.url()}`);
    return match[1];
  }

  /** Types a message (newlines included) and presses Enter. */
  async send(text: string): Promise<void> {
    const input = this.byTestId('chat-input');
    await input.fill(text);
    await input.press('Enter');
  }

  async isTurnRunning(): Promise<boolean> {
    return (await this.byTestId('chat-input').getAttribute('data-running')) === 'true';
  }

  /** Waits until the transcript holds `count` stored replies and no turn runs. */
  async waitForReplies(count: number, options: { timeout?: number } = {}): Promise<void> {
    await this.page
      .locator(`[data-testid="message-assistant"][data-status="complete"] >> nth=${count - 1}`)
      .waitFor(options);
    await this.page.locator('[data-testid="chat-input"][data-running="false"]').waitFor(options);
    await this.waitForHydrated(options);
  }

  /**
   * The page's scripts have taken over its server-rendered HTML (which already shows the
   * transcript): from here a click or a key does what it says.
   */
  async waitForHydrated(options: { timeout?: number } = {}): Promise<void> {
    await this.page.locator('[data-testid="studio"][data-hydrated="true"]').waitFor(options);
  }

  /** One consistent reading of what the page shows right now (taken in a single task in the page). */
  async liveState(): Promise<{
    running: boolean;
    todos: number;
    preferences: number;
    objective: string;
    document: string;
  }> {
    return this.page.evaluate(() => {
      const q = (id: string) => document.querySelectorAll(`[data-testid="${id}"]`);
      return {
        running:
          document.querySelector('[data-testid="chat-input"]')?.getAttribute('data-running') === 'true',
        todos: q('todo-item').length,
        preferences: q('preference-item').length,
        objective: document.querySelector<HTMLElement>('[data-testid="objective"]')?.innerText.trim() ?? '',
        document:
          document.querySelector<HTMLElement>('[data-testid="document-editor"] .cm-content')?.innerText ?? '',
      };
    });
  }

  async objective(): Promise<string> {
    return (await this.byTestId('objective').innerText()).trim();
  }

  async documentText(): Promise<string> {
    return this.page.locator('[data-testid="document-editor"] .cm-content').innerText();
  }

  async todos(): Promise<TodoRow[]> {
    return this.todoItems.evaluateAll((items) =>
      items.map((item) => ({
        text: (item.querySelector('[data-testid="todo-text"]')?.textContent ?? '').trim(),
        depth: Number(item.getAttribute('data-depth')),
        done: item.getAttribute('data-done') === 'true',
      })),
    );
  }

  async preferences(): Promise<PreferenceRow[]> {
    return this.preferenceItems.evaluateAll((items) =>
      items.map((item) => ({
        text: (item.querySelector('[data-testid="preference-text"]')?.textContent ?? '').trim(),
        locked: item.getAttribute('data-locked') === 'true',
      })),
    );
  }

  todo(text: string): Locator {
    return this.todoItems.filter({
      has: this.page.getByTestId('todo-text').getByText(text, { exact: true }),
    });
  }

  preference(text: string): Locator {
    return this.preferenceItems.filter({
      has: this.page.getByTestId('preference-text').getByText(text, { exact: true }),
    });
  }

  async editTodo(from: string, to: string): Promise<void> {
    await this.todo(from).getByTestId('todo-text').click();
    const input = this.byTestId('todo-text-input');
    await input.fill(to);
    await input.press('Enter');
    await this.todo(to).waitFor();
  }

  async editObjective(text: string): Promise<void> {
    await this.byTestId('objective').click();
    const input = this.byTestId('objective-input');
    await input.fill(text);
    await input.press('Enter');
  }

  /** Waits until every manual edit has reached the server. */
  async waitForSaved(): Promise<void> {
    await this.page.locator('[data-testid="workspace-sync"][data-state="saved"]').waitFor();
  }

  async openTab(tab: 'chat' | 'workspace' | 'history'): Promise<void> {
    await this.byTestId(`tab-${tab}`).click();
  }

  // ---- Set-up through the API, with this page's session ----------------------------------------

  /** Opens a path from `threadId` at step `fromTurn` (the branch's first step is `fromTurn + 1`); its id. */
  async branch(threadId: string, fromTurn: number): Promise<string> {
    const response = await writeFromPage(this.page, 'POST', `/api/conversations/${threadId}/branch`, {
      from_turn: fromTurn,
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { thread_id: string }).thread_id;
  }

  async lockPreference(threadId: string, preferenceId: string): Promise<void> {
    const response = await writeFromPage(
      this.page,
      'PATCH',
      `/api/conversations/${threadId}/preferences/${preferenceId}`,
      { locked: true },
    );
    expect(response.status()).toBe(200);
  }
}
