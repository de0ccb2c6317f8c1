import { test, expect } from './support/test';
import { RestoreViewSchema } from '@trellis/domain';
import { uniqueEmail } from './support/browser';
import { writeFromPage } from './support/same-origin';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';

const PASSWORD = 'correct horse battery';

/** Polls `read` until `accept` holds and returns that reading. */
async function waitForReading<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (accept(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out; last reading: ${JSON.stringify(last)}`);
}

test.describe('the studio', () => {
  test('co-writes a workspace through three directive turns and a manual edit, all of which survive a reload and reach the next snapshot', async ({
    page,
  }) => {
    const studio = new StudioPage(page);
    await studio.throttleTurnStreams(80);
    await new AuthPage(page).signUp(uniqueEmail('studio'), PASSWORD);
    expect(await studio.byTestId('model-label').textContent()).toContain('offline model');
    await studio.byTestId('conversations-empty').waitFor();

    const threadId = await studio.newConversation();
    expect(await studio.conversationItems.count()).toBe(1);
    expect(await studio.conversationItems.first().getAttribute('data-selected')).toBe('true');

    // Turn 1: the workspace fills in while the reply is still streaming.
    await studio.send(
      [
        'objective: A field guide to urban beekeeping',
        'doc: # Urban beekeeping',
        'Bees thrive in city gardens.',
        'prefer: Short paragraphs',
        'todo: Research local regulations',
        '  todo: Call the city council',
      ].join('\n'),
    );
    const midStream = await waitForReading(
      () => studio.liveState(),
      (s) => s.todos === 2 && s.preferences === 1 && s.document.includes('Bees thrive'),
    );
    expect(midStream.running).toBe(true);
    expect(midStream.objective).toBe('A field guide to urban beekeeping');
    await studio.waitForReplies(1);
    expect(await studio.storedReplies.last().getByTestId('tool-chip').count()).toBe(5);
    expect(await studio.storedReplies.last().getByTestId('tool-name').allTextContents()).toContain(
      'add_todo',
    );
    expect(await studio.userMessages.first().getByTestId('message-time').count()).toBe(1);
    expect(await studio.todos()).toEqual([
      { text: 'Research local regulations', depth: 0, done: false },
      { text: 'Call the city council', depth: 1, done: false },
    ]);

    // Turn 2: append to the document, another preference, an artifact.
    await studio.send(
      [
        'append: ## Getting started',
        'Begin with a single hive.',
        'prefer: British spelling',
        'artifact: Reading list | Bees in the City (2019)',
      ].join('\n'),
    );
    await waitForReading(
      () => studio.liveState(),
      (s) => s.preferences === 2 && s.document.includes('Begin with a single hive'),
    );
    await studio.waitForReplies(2);
    expect(await studio.artifactItems.count()).toBe(1);
    expect(await studio.artifactItems.first().getByTestId('artifact-turn').textContent()).toBe('step 2');

    // Turn 3: a new todo, and one completed by the agent.
    await studio.send(['todo: Order a starter hive', 'done: Research local regulations'].join('\n'));
    await studio.waitForReplies(3);
    await waitForReading(
      () => studio.todos(),
      (t) => t.length === 3 && t[0]?.done === true,
    );

    // Manual edits between turns: a todo's text, a checkbox, a lock, a keyboard
    // reorder, the objective and the document body.
    await studio.editTodo('Call the city council', 'Call the council planning office');
    await studio.todo('Order a starter hive').getByTestId('todo-checkbox').check();
    await studio.preference('British spelling').getByTestId('preference-lock').click();
    await studio.todo('Order a starter hive').getByTestId('todo-text').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await waitForReading(
      () => studio.todos(),
      (t) => t[0]?.text === 'Order a starter hive',
    );
    await studio.byTestId('todo-add').fill('Buy protective gloves');
    await studio.byTestId('todo-add').press('Enter');
    await studio.todo('Buy protective gloves').getByTestId('todo-text').click();
    const gloves = page.locator('[data-testid="todo-item"]:has([data-testid="todo-text-input"])');
    const depthOfGloves = async () => Number(await gloves.getAttribute('data-depth'));
    for (const [key, depth] of [
      ['Tab', 1],
      ['Tab', 2],
      ['Shift+Tab', 1],
    ] as const) {
      await studio.byTestId('todo-text-input').press(key);
      await waitForReading(depthOfGloves, (d) => d === depth);
    }
    await studio.byTestId('todo-text-input').press('Enter');
    await studio.editObjective('A practical field guide to urban beekeeping');
    await page.locator('[data-testid="document-editor"] .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n\nEdited by hand.');
    await page.locator('[data-testid="document-save-state"][data-state="saved"]').waitFor();
    await studio.waitForSaved();

    const expectedTodos = [
      { text: 'Order a starter hive', depth: 0, done: true },
      { text: 'Research local regulations', depth: 0, done: true },
      { text: 'Call the council planning office', depth: 1, done: false },
      { text: 'Buy protective gloves', depth: 1, done: false },
    ];
    const expectedPreferences = [
      { text: 'Short paragraphs', locked: false },
      { text: 'British spelling', locked: true },
    ];
    await waitForReading(
      () => studio.todos(),
      (todos) => JSON.stringify(todos) === JSON.stringify(expectedTodos),
    );

    await page.reload();
    await studio.waitForReplies(3);
    await studio.byTestId('workspace').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/c/${threadId}`);
    expect(await studio.userMessages.count()).toBe(3);
    expect(await studio.objective()).toBe('A practical field guide to urban beekeeping');
    const document = await studio.documentText();
    expect(document).toContain('# Urban beekeeping');
    expect(document).toContain('Begin with a single hive.');
    expect(document).toContain('Edited by hand.');
    expect(await studio.todos()).toEqual(expectedTodos);
    expect(await studio.preferences()).toEqual(expectedPreferences);
    expect(await studio.preference('British spelling').getByTestId('preference-lock-icon').count()).toBe(1);
    expect(await studio.artifactItems.count()).toBe(1);

    // Turn 4 snapshots the workspace first: the state after turn 3 (the
    // restore view, snapshot 4) holds the manual edits and nothing of turn 4.
    await studio.send('prefer: Cite every source');
    await studio.waitForReplies(4);
    const response = await page.request.get(`/api/conversations/${threadId}/turns/3`);
    expect(response.status()).toBe(200);
    const after3 = RestoreViewSchema.parse(await response.json());
    expect(after3.workspace.objective).toBe('A practical field guide to urban beekeeping');
    expect(after3.workspace.document.content).toContain('Edited by hand.');
    expect(after3.workspace.todos.map(({ text, depth, done }) => ({ text, depth, done }))).toEqual(
      expectedTodos,
    );
    expect(after3.workspace.preferences.map(({ text, locked }) => ({ text, locked }))).toEqual(
      expectedPreferences,
    );
    expect(await studio.preferences()).toEqual([
      ...expectedPreferences,
      { text: 'Cite every source', locked: false },
    ]);
  });

  test('manages conversations from the history menu: new, rename in place, delete after confirming', async ({
    page,
  }) => {
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('history'), PASSWORD);

    const first = await studio.newConversation();
    const second = await studio.newConversation();
    expect(await studio.conversationItems.count()).toBe(2);
    const selected = studio.page.locator('[data-testid="conversation-item"][data-selected="true"]');
    expect(await selected.getAttribute('data-thread-id')).toBe(second);

    // A row's actions show on hover or focus (they take no room while hidden): point at the row first.
    await selected.hover();
    await selected.getByTestId('rename-conversation').click();
    await studio.byTestId('conversation-title-input').fill('Beekeeping notes');
    await studio.byTestId('conversation-title-input').press('Enter');
    await selected.getByText('Beekeeping notes').waitFor();
    expect(await studio.byTestId('chat-title').textContent()).toBe('Beekeeping notes');

    await studio.conversationItems
      .filter({ has: page.locator(`[href="/c/${first}"]`) })
      .locator('a')
      .click();
    await page.waitForURL((url) => url.pathname === `/c/${first}`);

    await page.reload();
    await studio.conversationItems.first().waitFor();
    expect(await studio.conversationItems.getByText('Beekeeping notes').count()).toBe(1);

    const firstRow = studio.conversationItems.filter({ has: page.locator(`[href="/c/${first}"]`) });
    await firstRow.hover();
    await firstRow.getByTestId('delete-conversation').click();
    await studio.byTestId('confirm-accept').click();
    await page.waitForURL((url) => url.pathname === '/');
    await studio.byTestId('chat-empty').waitFor();
    expect(await studio.conversationItems.count()).toBe(1);
    await page.reload();
    await studio.conversationItems.first().waitFor();
    expect(await studio.conversationItems.count()).toBe(1);
  });

  test('pages a long transcript with "Load earlier", and Shift+Enter writes a new line instead of sending', async ({
    page,
  }) => {
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('paging'), PASSWORD);
    const threadId = await studio.newConversation();
    const turns = 27;
    for (let i = 1; i <= turns; i += 1) {
      const response = await writeFromPage(page, 'POST', `/api/conversations/${threadId}/messages`, {
        content: `todo: step ${i}`,
      });
      expect(response.status()).toBe(200);
      expect(await response.text()).toContain('event: done');
    }
    await page.reload();
    await studio.waitForReplies(1);
    await studio.byTestId('load-earlier').waitFor();
    const firstPage = await studio.userMessages.count();
    expect(firstPage).toBeLessThan(turns);
    await studio.byTestId('load-earlier').click();
    await waitForReading(
      () => studio.userMessages.count(),
      (n) => n === turns,
    );
    expect(await studio.byTestId('load-earlier').count()).toBe(0);
    expect(await studio.userMessages.first().getByTestId('message-content').textContent()).toBe(
      'todo: step 1',
    );

    const input = studio.byTestId('chat-input');
    await input.click();
    await page.keyboard.type('first line');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('second line');
    expect(await input.inputValue()).toBe('first line\nsecond line');
    await page.keyboard.press('Enter');
    await studio.waitForReplies(turns + 1);
    expect(await studio.userMessages.last().getByTestId('message-content').textContent()).toBe(
      'first line\nsecond line',
    );
    expect(await input.inputValue()).toBe('');
  });

  test('reorders todos by dragging a parent, whose subtree moves with it', async ({ page }) => {
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('drag'), PASSWORD);
    await studio.newConversation();
    await studio.send(['todo: Alpha', '  todo: Alpha child', 'todo: Beta', 'todo: Gamma'].join('\n'));
    await studio.waitForReplies(1);
    await waitForReading(
      () => studio.todos(),
      (t) => t.length === 4,
    );

    // Dropped on the lower half of Gamma's row: the Alpha block goes after it. The list is brought
    // to the middle of the panel first, away from the edges where a drag scrolls the panel.
    await studio.todo('Alpha').evaluate((row) => row.scrollIntoView({ block: 'center' }));
    const gamma = studio.todo('Gamma');
    const box = await gamma.boundingBox();
    await studio
      .todo('Alpha')
      .getByTestId('todo-drag-handle')
      .dragTo(gamma, {
        targetPosition: { x: 60, y: (box?.height ?? 20) - 4 },
      });
    const expected = ['Beta', 'Gamma', 'Alpha', 'Alpha child'];
    await waitForReading(
      () => studio.todos(),
      (t) => t.map((x) => x.text).join() === expected.join(),
    );
    await studio.waitForSaved();
    await page.reload();
    await studio.todoItems.first().waitFor();
    expect((await studio.todos()).map((t) => [t.text, t.depth])).toEqual([
      ['Beta', 0],
      ['Gamma', 0],
      ['Alpha', 0],
      ['Alpha child', 1],
    ]);
  });

  test('explains a busy thread (409) and a failed reply, keeps the message for a retry, and stops a streaming reply', async ({
    page,
  }) => {
    const studio = new StudioPage(page);
    await studio.throttleTurnStreams(150);
    await new AuthPage(page).signUp(uniqueEmail('notices'), PASSWORD);
    const threadId = await studio.newConversation();
    const sendUrl = `**/api/conversations/${threadId}/messages`;

    await page.route(sendUrl, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'turn_in_progress', message: 'A turn is already running' },
            }),
          })
        : route.fallback(),
    );
    await studio.send('todo: Inspect the hive');
    await studio.byTestId('turn-busy').waitFor();
    expect(await studio.userMessages.count()).toBe(0);
    await page.unroute(sendUrl);
    await studio.byTestId('retry-turn').click();
    await studio.waitForReplies(1);
    expect(await studio.byTestId('turn-busy').count()).toBe(0);
    expect((await studio.todos()).map((t) => t.text)).toEqual(['Inspect the hive']);

    await page.route(sendUrl, (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 200,
            contentType: 'text/event-stream',
            body: 'event: error\ndata: {"code":"upstream_failed","message":"The model did not answer"}\n\n',
          })
        : route.fallback(),
    );
    await studio.send('todo: Feed the bees');
    await studio.byTestId('turn-error').getByText('The model did not answer').waitFor();
    await page.unroute(sendUrl);
    await studio.byTestId('retry-turn').click();
    await studio.waitForReplies(2);
    expect(await studio.byTestId('turn-error').count()).toBe(0);

    await studio.send(['todo: One', 'todo: Two', 'todo: Three', 'todo: Four'].join('\n'));
    // The instant offline model may finish while the click lands (Stop is then disabled, then gone):
    // either way the outcome below holds — the reply is stored stopped, or complete.
    await studio
      .byTestId('stop')
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await page.locator('[data-testid="chat-input"][data-running="false"]').waitFor();
    expect(await studio.byTestId('send').count()).toBe(1);
    // The turn stays recorded with what was produced: the stored
    // reply is marked stopped, or complete if the model had already finished.
    const third = page.locator('[data-testid="message-assistant"][data-turn="3"]');
    await third.and(page.locator('[data-status="complete"], [data-status="interrupted"]')).waitFor();
    if ((await third.getAttribute('data-status')) === 'interrupted') {
      expect(await third.getByTestId('message-status').textContent()).toBe('Stopped');
    }
    expect(await studio.userMessages.count()).toBe(3);
  });

  test(
    'works on a phone: tabs instead of columns, a message sent from the chat tab shows up in the workspace tab',
    { tag: '@phone' },
    async ({ page }) => {
      const studio = new StudioPage(page);
      await new AuthPage(page).signUp(uniqueEmail('phone'), PASSWORD);
      await studio.byTestId('phone-tabs').waitFor();
      expect(await studio.byTestId('column-workspace').isVisible()).toBe(false);

      // Sending without a conversation starts one.
      await studio.send(
        ['objective: Keep bees on a balcony', 'todo: Buy a bee suit', '  todo: Check the size'].join('\n'),
      );
      await studio.waitForReplies(1);
      expect(new URL(page.url()).pathname).toMatch(/^\/c\/th_[0-9a-f]{32}$/);

      await studio.openTab('workspace');
      await studio.byTestId('workspace').waitFor();
      expect(await studio.byTestId('column-chat').isVisible()).toBe(false);
      expect(await studio.objective()).toBe('Keep bees on a balcony');
      expect(await studio.todos()).toEqual([
        { text: 'Buy a bee suit', depth: 0, done: false },
        { text: 'Check the size', depth: 1, done: false },
      ]);

      // The history column was hidden until now: its list measures the space it has once shown,
      // so its rows mount a frame after the tab opens.
      await studio.openTab('history');
      await expect.poll(() => studio.conversationItems.count()).toBe(1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    },
  );
});
