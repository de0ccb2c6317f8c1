import { test, expect } from './support/test';
import type { Page } from '@playwright/test';
import { uniqueEmail } from './support/browser';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';

const PASSWORD = 'correct horse battery';

/** Counts the POSTs the page makes to paths matching `pattern`. */
function countPosts(page: Page, pattern: RegExp): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && pattern.test(new URL(request.url()).pathname)) count += 1;
  });
  return () => count;
}

/** Whether `testId`'s last element lies within the message list's visible area. */
async function isInView(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const list = document.querySelector('[data-testid="message-list"]');
    const items = document.querySelectorAll(sel);
    const item = items[items.length - 1];
    if (!list || !item) return false;
    const outer = list.getBoundingClientRect();
    const inner = item.getBoundingClientRect();
    return inner.bottom > outer.top && inner.top < outer.bottom && inner.bottom <= outer.bottom + 1;
  }, selector);
}

test.describe('the composer', () => {
  test('sends once for a double-click on Send, and that one turn completes', async ({ page }) => {
    const studio = new StudioPage(page);
    await studio.throttleTurnStreams(60);
    await new AuthPage(page).signUp(uniqueEmail('dblclick'), PASSWORD);
    const conversationPosts = countPosts(page, /^\/api\/conversations$/);
    const messagePosts = countPosts(page, /^\/api\/conversations\/[^/]+\/messages$/);

    // From the empty studio: the first press also creates the conversation, the slowest path.
    await studio.byTestId('chat-input').fill('todo: Order a hive\ntodo: Find a mentor');
    await studio.byTestId('send').dblclick();
    await studio.waitForReplies(1);
    expect(await studio.userMessages.count()).toBe(1);
    expect(await studio.storedReplies.count()).toBe(1);
    expect(conversationPosts()).toBe(1);
    expect(messagePosts()).toBe(1);
    expect((await studio.todos()).map((t) => t.text)).toEqual(['Order a hive', 'Find a mentor']);

    // On an open conversation, while the reply streams: the second click does not land on Stop.
    await studio.byTestId('chat-input').fill('todo: Paint the hive');
    await studio.byTestId('send').dblclick();
    await studio.waitForReplies(2);
    expect(await studio.userMessages.count()).toBe(2);
    expect(await page.locator('[data-testid="message-assistant"][data-status="interrupted"]').count()).toBe(
      0,
    );
    expect(messagePosts()).toBe(2);
  });

  test('brings a sent message and its reply into view when the list was scrolled up, and offers a jump to the latest', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('scroll'), PASSWORD);
    await studio.newConversation();
    for (let turn = 1; turn <= 4; turn += 1) {
      const lines = Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of message ${turn}.`);
      await studio.send(lines.join('\n'));
      await studio.waitForReplies(turn);
    }
    const list = studio.byTestId('message-list');
    await list.evaluate((el) => {
      el.scrollTop = 0;
      el.dispatchEvent(new Event('scroll'));
    });
    await studio.byTestId('jump-to-latest').waitFor();
    expect(await isInView(page, '[data-testid="message-user"]')).toBe(false);

    await studio.send('todo: The newest message');
    await studio.waitForReplies(5);
    expect(await studio.userMessages.last().getByTestId('message-content').textContent()).toBe(
      'todo: The newest message',
    );
    expect(await isInView(page, '[data-testid="message-assistant"]')).toBe(true);
    expect(await studio.byTestId('jump-to-latest').count()).toBe(0);

    await list.evaluate((el) => {
      el.scrollTop = 0;
      el.dispatchEvent(new Event('scroll'));
    });
    await studio.byTestId('jump-to-latest').click();
    await studio.byTestId('jump-to-latest').waitFor({ state: 'detached' });
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-testid="message-list"]');
      return el !== null && el.scrollHeight - el.scrollTop - el.clientHeight < 2;
    });
  });

  test('keeps an over-long message as a draft, says by how much it is over before sending, and sends nothing', async ({
    page,
  }) => {
    const studio = new StudioPage(page);
    await new AuthPage(page).signUp(uniqueEmail('toolong'), PASSWORD);
    await studio.newConversation();
    const messagePosts = countPosts(page, /^\/api\/conversations\/[^/]+\/messages$/);
    const input = studio.byTestId('chat-input');

    await input.fill('a'.repeat(31_000));
    expect(await studio.byTestId('composer-count').textContent()).toBe('31,000 / 32,000');
    const draft = 'a'.repeat(100_000);
    await input.fill(draft);
    expect(await studio.byTestId('composer-count').textContent()).toBe('100,000 / 32,000');
    // Said while typing, with Send disabled: nothing has to be tried first.
    expect(await studio.byTestId('composer-problem').textContent()).toBe(
      'Message too long by 68,000 characters (100,000 of 32,000)',
    );
    expect(await studio.byTestId('send').isDisabled()).toBe(true);
    await input.press('Enter');
    expect(await input.inputValue()).toBe(draft);
    expect(await studio.userMessages.count()).toBe(0);
    expect(messagePosts()).toBe(0);

    // Shortened below the limit, the same draft goes out.
    await input.fill('todo: Short enough');
    expect(await studio.byTestId('composer-problem').textContent()).toBe('');
    expect(await studio.byTestId('composer-count').count()).toBe(0);
    await input.press('Enter');
    await studio.waitForReplies(1);
    expect(messagePosts()).toBe(1);
  });
});
