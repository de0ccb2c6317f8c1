// The studio against a misbehaving local OpenAI-compatible server, in Chromium: each
// failure shows one notice with the provider's reason and one fitting action, the wait shows while a
// rate limit runs, and Retry replaces the failed reply in place with a pager. Self-contained: it
// starts its own fake provider and its own studio (the production build) configured for it.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { startFakeProvider, type FakeProviderServer } from '@trellis/agent/testing';
import { seriousViolations } from './support/axe';
import { startStudioServer, type StudioServer } from './support/studio-server';

let provider: FakeProviderServer;
let studio: StudioServer;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(240_000);
  provider = await startFakeProvider('openai', [
    { error: { status: 401, message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    { error: { status: 429, message: 'Rate limit reached for requests', retryAfter: '90' } },
    { error: { status: 429, message: 'Rate limit reached', retryAfter: '3' } },
    { text: 'Answered after the wait.', usage: { input: 80, output: 5 } },
    { text: 'Bees build combs from wax they secrete', dropAfterWords: 4 },
    { text: 'Bees build combs from wax.', usage: { input: 120, output: 7 } },
  ]);
  // The production build on a database of its own, started and awaited by the suite's helper.
  studio = await startStudioServer({
    env: {
      LLM_PROVIDER: 'openai',
      LLM_BASE_URL: provider.url,
      LLM_API_KEY: 'sk-e2e-local-key-0123456789',
      LLM_MODEL: 'local-model',
      LLM_MAX_RETRIES: '1',
      LLM_TIMEOUT_SECONDS: '20',
    },
  });
  base = studio.baseUrl;
});

test.afterAll(async () => {
  await studio?.stop();
  await studio?.dispose();
  await provider?.close();
});

test('each failure shows one notice with the provider’s reason and one action; retry pages in place', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto(`${base}/sign-up`);
  await page.getByLabel('Name').fill('Real model');
  await page.getByLabel('Email').fill(`real-model-${randomUUID()}@example.test`);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await page.getByTestId('studio').waitFor();
  const send = async (text: string) => {
    await page.getByTestId('chat-input').fill(text);
    await page.getByTestId('chat-input').press('Enter');
  };
  const idle = () => page.locator('[data-testid="chat-input"][data-running="false"]').waitFor();

  // A refused key: the provider's words, and "Check LLM_API_KEY" as the one action.
  await send('hello');
  const auth = page.locator('[data-testid="reply-interrupted"][data-reason-code="auth"]');
  // The first reply of a fresh page: on a loaded machine the page may still be loading its map when
  // the refusal is stored (a clean-clone run missed it at 10 s); the notice it waits for stays.
  await expect(auth.getByTestId('reply-interrupted-reason')).toContainText(
    '401: Incorrect API key provided',
    { timeout: 30_000 },
  );
  await expect(auth.getByTestId('reply-check')).toHaveText(/Check LLM_API_KEY/);
  await expect(auth.getByRole('button')).toHaveCount(0);
  await expect(page.getByTestId('turn-error')).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  // A rate limit longer than the studio waits: "Retry in N s", counting down, disabled meanwhile.
  await send('second');
  const limited = page.locator('[data-testid="reply-interrupted"][data-reason-code="rate_limited"]');
  await expect(limited.getByTestId('reply-interrupted-reason')).toContainText(
    '429: Rate limit reached for requests',
  );
  await expect(limited.getByTestId('interrupted-retry')).toHaveText(/Retry in \d+ s/);
  await expect(limited.getByTestId('interrupted-retry')).toBeDisabled();
  await expect(page.getByTestId('interrupted-retry')).toHaveCount(1);

  // A short rate limit: the wait shows while it runs, then the reply arrives.
  await send('third');
  await expect(page.getByTestId('turn-wait-status')).toContainText(/rate limited — retrying in \d+ s/);
  await idle();
  await expect(page.getByTestId('turn-wait-status')).toHaveCount(0);

  // A dropped stream keeps its words; Retry now answers the same step again, and the failed
  // attempt stays as page 1/2 of the reply.
  await send('How do bees build combs?');
  const dropped = page.locator('[data-testid="reply-interrupted"][data-reason-code="dropped"]');
  await expect(dropped.getByTestId('reply-interrupted-reason')).toContainText('dropped mid-reply');
  const users = await page.getByTestId('message-user').count();
  await dropped.getByTestId('interrupted-retry').click();
  await expect(page.getByTestId('attempt-position')).toHaveText(/2\/2/);
  await idle();
  expect(await page.getByTestId('message-user').count()).toBe(users);
  await expect(page.getByTestId('message-usage').last()).toHaveText('local-model · 120 in / 7 out');
  await page.getByTestId('attempt-prev').click();
  await expect(page.getByTestId('attempt-position')).toHaveText(/1\/2/);
  await expect(page.locator('[data-reason-code="dropped"]')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
