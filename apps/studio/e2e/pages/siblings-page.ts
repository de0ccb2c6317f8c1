import type { Locator } from '@playwright/test';
import { StudioPage } from './studio-page';

/** `‹ i/n ›` as the page shows it at one step; null where the step has no siblings. */
export interface SiblingPosition {
  index: number;
  count: number;
}

/**
 * Edit, regenerate and sibling switching on top of the studio page. Steps are addressed by
 * their turn index (`data-turn`), controls by data-testid.
 */
export class SiblingsPage extends StudioPage {
  userMessage(turn: number): Locator {
    return this.page.locator(`[data-testid="message-user"][data-turn="${turn}"]`);
  }

  /** The stored (read-back) reply of a step. */
  reply(turn: number): Locator {
    return this.page.locator(`[data-testid="message-assistant"][data-turn="${turn}"][data-status="complete"]`);
  }

  /**
   * The step's rows, where `‹ i/n ›` sits: the reply's pages through its regenerations, the user
   * message's through edits and continue-from-here paths. Without `place`, whichever the step shows
   * (a step that shows both needs the place).
   */
  private stepRows(turn: number, place?: 'message' | 'reply'): Locator {
    const user = `[data-testid="message-user"][data-turn="${turn}"]`;
    const reply = `[data-testid="message-assistant"][data-turn="${turn}"]`;
    return this.page.locator(place === 'message' ? user : place === 'reply' ? reply : `${user}, ${reply}`);
  }

  switcher(turn: number, place?: 'message' | 'reply'): Locator {
    return this.stepRows(turn, place).getByTestId('sibling-switcher');
  }

  prev(turn: number, place?: 'message' | 'reply'): Locator {
    return this.stepRows(turn, place).getByTestId('sibling-prev');
  }

  next(turn: number, place?: 'message' | 'reply'): Locator {
    return this.stepRows(turn, place).getByTestId('sibling-next');
  }

  /**
   * Clicks `button` and returns where `group` stood on screen as the click was dispatched: where the
   * page reads it (a row still settling before the click may have moved it since an earlier reading).
   */
  async clickReadingTop(button: Locator, group: Locator): Promise<number> {
    await group.evaluate((el) => {
      document.addEventListener(
        'click',
        () => {
          document.body.dataset.topAtClick = String(el.getBoundingClientRect().top);
        },
        { capture: true, once: true },
      );
    });
    await button.click();
    return Number(await this.page.evaluate(() => document.body.dataset.topAtClick));
  }

  async userText(turn: number): Promise<string> {
    return (await this.userMessage(turn).getByTestId('message-content').innerText()).trim();
  }

  /** What the reply shows: its words and its change chips (the offline model counts its changes; each chip names one). */
  async replyText(turn: number): Promise<string> {
    return (await this.reply(turn).innerText()).trim();
  }

  /** The user messages' texts, oldest first. */
  async userTexts(): Promise<string[]> {
    return this.userMessages.evaluateAll((rows) =>
      rows.map((row) => (row.querySelector('[data-testid="message-content"]')?.textContent ?? '').trim()),
    );
  }

  /** Every `‹ i/n ›` shown, by turn (one consistent reading). */
  async positions(): Promise<Record<number, string>> {
    return this.page.evaluate(() => {
      const out: Record<number, string> = {};
      for (const row of document.querySelectorAll('[data-testid="message-user"], [data-testid="message-assistant"]')) {
        const position = row.querySelector('[data-testid="sibling-position"]');
        if (position) out[Number(row.getAttribute('data-turn'))] = (position.textContent ?? '').trim();
      }
      return out;
    });
  }

  /** Waits until step `turn` shows `‹ index/count ›` (as "i/n"), on the given pager or either. */
  async waitForPosition(turn: number, text: string, place?: 'message' | 'reply'): Promise<void> {
    await this.stepRows(turn, place)
      .getByTestId('sibling-position')
      .filter({ hasText: new RegExp(`^${text.replace('/', '\\/')}$`) })
      .waitFor();
  }

  /** Waits until the URL names a thread other than `from`, and returns it. */
  async waitForThreadOtherThan(from: string): Promise<string> {
    await this.page.waitForURL((url) => /^\/c\/th_[0-9a-f]{32}$/.test(url.pathname) && !url.pathname.endsWith(from));
    return this.threadId();
  }

  /** Waits until the URL names `threadId`. */
  async waitForThread(threadId: string): Promise<void> {
    await this.page.waitForURL((url) => url.pathname === `/c/${threadId}`);
  }

  /** Waits until step `turn` reads `user` and its reply is stored, with no turn running. */
  async waitForStep(turn: number, user: string): Promise<void> {
    await this.userMessage(turn).getByTestId('message-content').filter({ hasText: user }).waitFor();
    await this.reply(turn).waitFor();
    await this.page.locator('[data-testid="chat-input"][data-running="false"]').waitFor();
    await this.waitForHydrated();
  }

  async hasFocus(control: Locator): Promise<boolean> {
    return control.evaluate((el) => el === document.activeElement).catch(() => false);
  }

  /** Waits until the displayed thread has a turn in flight. */
  async waitForRunningTurn(): Promise<void> {
    await this.page.locator('[data-testid="chat-input"][data-running="true"]').waitFor();
  }

  /** Opens the inline editor of step `turn` (hover first, as a mouse user would). */
  async openEditor(turn: number): Promise<Locator> {
    await this.userMessage(turn).hover();
    await this.userMessage(turn).getByTestId('edit-message').click();
    const box = this.userMessage(turn).getByTestId('edit-box');
    await box.waitFor();
    return box;
  }

  /** Edits step `turn` and sends it with Enter (the composer's send key); returns the new sibling's thread. */
  async edit(turn: number, text: string): Promise<string> {
    const from = this.threadId();
    const box = await this.openEditor(turn);
    await box.fill(text);
    await box.press('Enter');
    return this.waitForThreadOtherThan(from);
  }

  /** Regen on step `turn`'s reply; returns the new sibling's thread (known before the reply ends). */
  async regenerate(turn: number): Promise<string> {
    const from = this.threadId();
    await this.reply(turn).hover();
    await this.reply(turn).getByTestId('regenerate').click();
    return this.waitForThreadOtherThan(from);
  }

  /** The bottom bar's ↻; returns the new sibling's thread. */
  async regenerateLast(): Promise<string> {
    const from = this.threadId();
    await this.byTestId('regenerate-last').click();
    return this.waitForThreadOtherThan(from);
  }

  /**
   * Delays each event of regenerate streams in the browser, so the page can be seen switching to the
   * new branch while its reply still streams. Call before navigating.
   */
  async throttleRegenerateStreams(delayMs: number): Promise<void> {
    await this.page.addInitScript((delay: number) => {
      const original = window.fetch.bind(window);
      window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
        const response = await original(input, init);
        const url = new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          location.href,
        );
        if (!/\/turns\/\d+\/regenerate$/.test(url.pathname) || !response.ok || !response.body) return response;
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
        return new Response(slowed, { status: response.status, headers: response.headers });
      };
    }, delayMs);
  }
}
