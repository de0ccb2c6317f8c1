// A live family in Chromium, through a real reverse proxy: two studio processes on one PostgreSQL
// behind Debian's nginx (round-robin, deploy/nginx-trellis.conf's stream settings), and the
// offline model slowed down so a reply takes several seconds. It starts its own database (on the
// run's PostgreSQL), processes and proxy; of the suite's fixtures it uses `newPage` (the tabs) and
// not the worker's studio.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { dropDatabase, ensureDatabase } from '@trellis/db';
import { freePort } from '@trellis/db/testing';
import { serve, waitForHealthy } from '../scripts/serve.ts';
import { AuthPage } from './pages/auth-page';
import { StudioPage } from './pages/studio-page';
import { uniqueEmail } from './support/browser';
import { sleep } from './support/lifecycle';
import { writeFromPage } from './support/same-origin';
import { exited, hasExited, keepOutput } from './support/studio-server';
import { expect, test, type E2eFixtures } from './support/test';
import { DESKTOP_VIEWPORT } from './support/viewports';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const PASSWORD = 'correct horse battery';
/** 250 ms per chunk: the offline model's help text (about 60 words) streams for about 15 s. */
const CHUNK_DELAY_MS = '250';
const LONG_QUESTION = 'help';

let workDir: string;
let databaseName: string | undefined;
const children: ChildProcess[] = [];
/** Each studio process's last output, read as it comes (an unread pipe would fill and block it). */
const studios: { name: string; child: ChildProcess; output: () => string }[] = [];
let proxyUrl: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  workDir = path.join(tmpdir(), `trellis-live-${randomBytes(5).toString('hex')}`);
  await mkdir(workDir, { recursive: true, mode: 0o755 });
  // global-setup.ts gives every worker the run's PostgreSQL; both processes share one database on it.
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('no DATABASE_URL: run this spec through playwright test');
  databaseName = `trellis_live_${randomBytes(5).toString('hex')}`;
  const databaseUrl = await ensureDatabase(adminUrl, databaseName);
  const proxyPort = await freePort();
  proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const ports = [await freePort(), await freePort()];
  const env = {
    DATABASE_URL: databaseUrl,
    BETTER_AUTH_SECRET: randomBytes(32).toString('hex'),
    TRELLIS_BASE_URL: proxyUrl,
    TRELLIS_TRUSTED_PROXIES: '127.0.0.1',
    TRELLIS_DATA_DIR: workDir,
    LLM_PROVIDER: 'offline',
    TRELLIS_OFFLINE_CHUNK_DELAY_MS: CHUNK_DELAY_MS,
    LOG_LEVEL: 'warn',
  };
  // One after the other: the first migrates the database.
  for (const [i, port] of ports.entries()) {
    const child = serve({ host: '127.0.0.1', port, env, stdio: 'pipe' });
    children.push(child);
    studios.push({ name: `studio ${i + 1} (port ${port})`, child, output: keepOutput(child) });
    await waitForHealthy(`http://127.0.0.1:${port}`, 120_000, child);
  }
  await writeFile(
    path.join(workDir, 'nginx.conf'),
    `pid ${workDir}/nginx.pid;
error_log ${workDir}/nginx-error.log;
events {}
http {
  access_log off;
  client_body_temp_path ${workDir}/nginx-body;
  proxy_temp_path ${workDir}/nginx-proxy;
  upstream trellis_studio { ${ports.map((p) => `server 127.0.0.1:${p};`).join(' ')} keepalive 16; keepalive_timeout 4s; }
  server {
    listen 127.0.0.1:${proxyPort};
    location ~ ^/api/conversations/[^/]+/(events|messages|apply|turns/[0-9]+/(stream|regenerate|edit))$ {
      proxy_pass http://trellis_studio; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header Host $http_host; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off; proxy_cache off; gzip off; proxy_read_timeout 1h; proxy_next_upstream off;
    }
    location / {
      proxy_pass http://trellis_studio; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_set_header Host $http_host; proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`,
  );
  const nginx = spawn(NGINX, ['-p', workDir, '-c', path.join(workDir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  children.push(nginx);
  await waitForHealthy(proxyUrl, 30_000, nginx);
});

// A failed test carries what each studio process wrote last, and whether it is still running.
test.afterEach(async () => {
  const info = test.info();
  if (info.status === info.expectedStatus) return;
  for (const { name, child, output } of studios) {
    const state = hasExited(child) ? `exited (${child.exitCode ?? child.signalCode})` : 'running';
    await info.attach(`${name}, ${state}`, { body: output() || '(no output)', contentType: 'text/plain' });
  }
});

test.afterAll(async () => {
  for (const child of children.reverse()) {
    const exit = exited(child);
    child.kill('SIGTERM');
    await Promise.race([exit, sleep(20_000)]);
  }
  if (databaseName) await dropDatabase(process.env.DATABASE_URL!, databaseName).catch(() => undefined);
  await rm(workDir, { recursive: true, force: true });
});

type NewPage = E2eFixtures['newPage'];

async function tab(newPage: NewPage): Promise<{ page: Page; studio: StudioPage }> {
  const { page } = await newPage({ baseURL: proxyUrl, viewport: DESKTOP_VIEWPORT });
  page.setDefaultTimeout(30_000);
  return { page, studio: new StudioPage(page) };
}

/** Two tabs of one user (two browser contexts: their requests alternate between the processes). */
async function twoTabs(newPage: NewPage) {
  const email = uniqueEmail('live');
  const a = await tab(newPage);
  await a.page.goto('/sign-up');
  await new AuthPage(a.page).signUp(email, PASSWORD);
  const b = await tab(newPage);
  await b.page.goto('/sign-in');
  await new AuthPage(b.page).signIn(email, PASSWORD);
  return { a, b };
}

test('a step sent in tab A appears in tab B; B waits while A’s reply streams; a rename in B shows in A', async ({
  newPage,
}) => {
  const { a, b } = await twoTabs(newPage);
  const threadId = await a.studio.newConversation();
  await a.studio.send('todo: Order a hive');
  await a.studio.waitForReplies(1);
  await b.page.goto(`/c/${threadId}`);
  await b.studio.waitForReplies(1);

  // What B shows while A's reply streams is recorded in B's page as it happens, and read afterwards:
  // the test waits for outcomes that stay true, never for a passing state (a busy machine may
  // only look after the reply has ended).
  await b.page.evaluate(() => {
    const seen = { answeringElsewhere: false, composerWaited: false, streamed: false };
    (window as unknown as { seenInB: typeof seen }).seenInB = seen;
    const look = () => {
      seen.answeringElsewhere ||= document.querySelector('[data-testid="answering-elsewhere"]') !== null;
      seen.composerWaited ||= document.querySelector('[data-testid="chat-input"][data-running="true"]') !== null;
      seen.streamed ||= document.querySelector('[data-testid="message-assistant"][data-status="streaming"]') !== null;
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  await a.studio.send(LONG_QUESTION);
  // B heard the turn start, followed the reply as it streamed, and its composer waited (no 409).
  await b.studio.waitForReplies(2);
  expect(await b.page.evaluate(() => (window as unknown as { seenInB: unknown }).seenInB)).toEqual({
    answeringElsewhere: true,
    composerWaited: true,
    streamed: true,
  });
  await a.studio.waitForReplies(2);
  const replyInA = (await a.studio.storedReplies.nth(1).getByTestId('message-content').textContent()) ?? '';
  expect(replyInA.length).toBeGreaterThan(20);
  await expect(b.studio.storedReplies.nth(1).getByTestId('message-content')).toHaveText(replyInA);

  const renamed = `Renamed in B ${randomBytes(3).toString('hex')}`;
  const response = await writeFromPage(b.page, 'PATCH', `/api/conversations/${threadId}`, { title: renamed });
  expect(response.ok()).toBe(true);
  await expect(a.page.getByText(renamed).first()).toBeVisible();
});

test('reloading four seconds into a slow reply (15 s): the reply keeps streaming and ends complete', async ({
  newPage,
}) => {
  const { a } = await twoTabs(newPage);
  await a.studio.newConversation();
  await a.studio.send(LONG_QUESTION);
  await expect(a.studio.byTestId('chat-input')).toHaveAttribute('data-running', 'true');
  await a.page.waitForTimeout(4_000);
  await a.page.reload();
  await a.studio.waitForReplies(1);
  await expect(a.page.locator('[data-testid="message-assistant"][data-status="complete"]')).toHaveCount(1);
});

test('closing the tab mid-reply and opening the path later: the whole reply is there', async ({
  newPage,
}) => {
  const { a, b } = await twoTabs(newPage);
  const threadId = await a.studio.newConversation();
  await a.studio.send(LONG_QUESTION);
  // Closed once the reply is streaming: the server has the turn (the composer's running state is
  // the page's own, set before its request has even arrived).
  await expect(a.page.locator('[data-testid="message-assistant"][data-status="streaming"]').getByTestId('message-content')).not.toBeEmpty();
  await a.page.close();
  await b.page.goto(`/c/${threadId}`);
  await b.studio.waitForReplies(1);
  await expect(b.page.locator('[data-testid="reply-interrupted"]')).toHaveCount(0);
});

test('Stop ends the reply interrupted with the reason “you stopped this reply”', async ({ newPage }) => {
  const { a } = await twoTabs(newPage);
  await a.studio.newConversation();
  await a.studio.send(LONG_QUESTION);
  // Stopped once some of the reply has streamed (what was said stays, marked as interrupted).
  await expect(a.page.locator('[data-testid="message-assistant"][data-status="streaming"]').getByTestId('message-content')).not.toBeEmpty();
  await a.studio.byTestId('stop').click();
  await expect(a.studio.byTestId('reply-interrupted-reason')).toContainText('you stopped this reply');
});
