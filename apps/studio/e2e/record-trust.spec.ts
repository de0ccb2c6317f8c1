// The record a person can trust, in Chromium against a production build with the offline model
// slowed down (each streamed word waits TRELLIS_OFFLINE_CHUNK_DELAY_MS): a retry after Stop shows
// one copy of each change. The offline model makes a message's changes at once, then streams one
// sentence counting them ("Added 12 todos…"), a word every 5 s here.
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';
import { startStudioServer, type StudioServer } from './support/studio-server';
import { expect, test } from './support/test';

const PASSWORD = 'correct horse battery';
const todos = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `todo: ${prefix} ${i + 1}`);

let server: StudioServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  // At 5 s a word the counting sentence streams for about 30 s after the changes: time to Stop.
  server = await startStudioServer({ env: { TRELLIS_OFFLINE_CHUNK_DELAY_MS: '5000' } });
});
test.afterAll(async () => {
  await server?.stop();
  await server?.dispose();
});

test('Stop, then Retry: the document and the todos hold one copy of each change', async ({ newPage, axe }) => {
  test.setTimeout(120_000);
  const { page } = await newPage({ baseURL: server.baseUrl });
  const studio = new StudioPage(page);
  await page.goto('/sign-up');
  await new AuthPage(page).signUp(uniqueEmail('retry-clean'), PASSWORD);
  await studio.newConversation();
  const message = ['append: The opening paragraph of the review.', ...todos(12, 'Read source')].join('\n');
  await studio.send(message);
  // The changes are made; the summary's first word is 5 s away: Stop now keeps them as a stopped attempt's.
  await expect(studio.todoItems).toHaveCount(12);
  await expect(studio.byTestId('stop')).toBeVisible();
  await studio.byTestId('stop').click();
  const notice = studio.byTestId('reply-interrupted');
  await expect(notice).toBeVisible();
  await notice.getByTestId('interrupted-retry').click();
  await studio.waitForReplies(1, { timeout: 60_000 });

  await expect(studio.todoItems).toHaveCount(12);
  const texts = (await studio.todos()).map((t) => t.text);
  expect(new Set(texts).size).toBe(12);
  const document = await studio.documentText();
  expect(document.split('The opening paragraph of the review.')).toHaveLength(2);
  await axe(page);
});
