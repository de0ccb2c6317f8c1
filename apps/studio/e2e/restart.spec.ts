// A studio process stopped or killed, then started again on the same data: each
// spec starts its own studio (e2e/support/studio-server.ts), with a slow offline
// model so a reply is still streaming when the signal lands. The minimum length of
// a reply is what makes the timing certain: the offline help text is 54 chunks,
// each at least TRELLIS_OFFLINE_CHUNK_DELAY_MS after the one before.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { test, expect } from './support/test';
import { OFFLINE_HELP } from '@trellis/agent';
import type { MessageList } from '@trellis/domain';
import { freePort } from '@trellis/db/testing';
import { waitForHealthy } from '../scripts/serve.ts';
import { AuthPage } from './pages/auth-page';
import { SiblingsPage } from './pages/siblings-page';
import { StudioPage } from './pages/studio-page';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';
import { readStoppedStudio, SERVER_STOPPED, sleep, startStreamingTurn } from './support/lifecycle';
import { exited, restartStudioServer, startStudioServer, type StudioServer } from './support/studio-server';

const PASSWORD = 'correct horse battery';
/** The offline model answers this with its help text (OFFLINE_HELP): 54 streamed chunks. */
const QUESTION = 'Tell me what you can do';
const RESTARTING = 'The studio is restarting — your message was not sent.';
const STREAMED_TEXT =
  '[data-testid="message-assistant"][data-status="streaming"] [data-testid="message-content"]';
/**
 * Only the embedded database (whose studio frees its previous run's leases at boot), and
 * heartbeats that never go stale within a spec: whatever frees a thread here is the boot or
 * the drain, not the stale-instance sweep.
 */
const LIFECYCLE_ENV = { DATABASE_URL: '', TRELLIS_INSTANCE_STALE_SECONDS: '3600' };

/** The process group of the studio serving `dataDir` (the parent of its postmaster), if one still runs. */
function studioGroup(dataDir: string): number[] {
  try {
    const postmaster = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0];
    const stat = readFileSync(`/proc/${postmaster}/stat`, 'utf8');
    return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])];
  } catch {
    return [];
  }
}

function postmasterPid(server: StudioServer): string {
  return path.join(server.dataDir, 'postgres', 'postmaster.pid');
}

async function listMessages(
  client: { get(url: string): Promise<{ json(): Promise<unknown> }> },
  threadId: string,
) {
  return ((await (await client.get(`/api/conversations/${threadId}/messages`)).json()) as MessageList)
    .messages;
}

test.describe('studio process lifecycle', () => {
  const servers: StudioServer[] = [];
  test.afterAll(async () => {
    for (const s of servers) await s.stop();
    for (const s of servers) await s.dispose();
  });

  test('comes back after SIGKILL with its data intact, and SIGTERM stops Postgres cleanly', async () => {
    const first = await startStudioServer({ env: { DATABASE_URL: '' } });
    servers.push(first);
    const client = new ApiClient(first.baseUrl);
    const email = uniqueEmail('restart');
    await client.signUp(email);
    const { token } = await client.json<{ token: string }>('POST', '/api/tokens', { name: 'survivor' }, 201);

    first.child.kill('SIGKILL');
    await exited(first.child);
    // The postmaster outlives its killed parent; the next start must recover it.
    expect(existsSync(postmasterPid(first))).toBe(true);

    const second = await restartStudioServer(first);
    servers.push(second);
    const rest = new ApiClient(second.baseUrl).withToken(token);
    expect((await rest.request('GET', '/api/conversations')).status).toBe(200);
    const listed = await client.json<{ tokens: { name: string }[] }>('GET', '/api/tokens');
    expect(listed.tokens.map((t) => t.name)).toEqual(['survivor']);

    await second.stop();
    expect(second.child.exitCode ?? second.child.signalCode).not.toBeNull();
    expect(existsSync(postmasterPid(first))).toBe(false);
  });

  test('after a SIGKILL mid-reply, the restarted studio shows the reply interrupted with its reason, and Retry answers it in full at the same step', async ({
    axe,
    newPage,
  }) => {
    test.setTimeout(420_000);
    // The reply lasts at least 54 × 400 ms = 21.6 s: the kill lands mid-reply even on a busy machine
    // (at 150 ms a loaded run saw the whole reply stored before the SIGKILL).
    const first = await startStudioServer({
      env: { ...LIFECYCLE_ENV, TRELLIS_OFFLINE_CHUNK_DELAY_MS: '400' },
    });
    servers.push(first);
    const { page, context } = await newPage({ baseURL: first.baseUrl });
    const chat = new SiblingsPage(page);
    await new AuthPage(page).signUp(uniqueEmail('sigkill'), PASSWORD);
    const original = await chat.newConversation();
    await chat.send(QUESTION);
    await page.locator(STREAMED_TEXT).waitFor();
    const turn = Number(await chat.userMessages.last().getAttribute('data-turn'));

    first.child.kill('SIGKILL');
    await exited(first.child);
    const second = await restartStudioServer(first);
    servers.push(second);

    // The boot freed the dead run's lease and stored the reply it left as interrupted.
    await page.reload();
    const notice = chat.byTestId('reply-interrupted');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.getAttribute('data-status')).toBe('interrupted');
    expect(await notice.getByTestId('reply-interrupted-reason').textContent()).toBe(
      `This reply was interrupted: ${SERVER_STOPPED}.`,
    );
    expect(await notice.getByTestId('interrupted-retry').isVisible()).toBe(true);
    await axe(page);

    // Retry in place: the same question answered again at the same step (no new user message), the
    // interrupted attempt kept as an earlier page of the reply.
    await notice.getByTestId('interrupted-retry').click();
    await page.locator('[data-testid="chat-input"][data-running="false"]').waitFor({ timeout: 90_000 });
    await expect
      .poll(
        async () => (await listMessages(page.request, original)).map((m) => [m.turn_index, m.role, m.status]),
        { timeout: 90_000 },
      )
      .toEqual([
        [turn, 'user', 'complete'],
        [turn, 'assistant', 'interrupted'],
        [turn, 'assistant', 'complete'],
      ]);
    const reply = (await listMessages(page.request, original))
      .filter((m) => m.role === 'assistant' && m.turn_index === turn)
      .at(-1);
    expect(reply).toMatchObject({ status: 'complete', content: OFFLINE_HELP });
    await context.close();
  });

  test('on SIGTERM mid-reply it refuses sends with 503 unavailable and Retry-After (the page keeps the draft), stores the reply as interrupted, frees its lease, then stops PostgreSQL', async ({
    newPage,
  }) => {
    test.setTimeout(420_000);
    // The reply lasts at least 54 × 500 ms = 27 s, far longer than the 12 s grace: the drain must stop it.
    const first = await startStudioServer({
      env: {
        ...LIFECYCLE_ENV,
        TRELLIS_OFFLINE_CHUNK_DELAY_MS: '500',
        TRELLIS_SHUTDOWN_GRACE_SECONDS: '12',
      },
    });
    servers.push(first);
    const origin = { origin: first.baseUrl };
    const { page: draftPage, context } = await newPage({ baseURL: first.baseUrl });
    const drafting = new StudioPage(draftPage);
    await new AuthPage(draftPage).signUp(uniqueEmail('sigterm'), PASSWORD);
    const draftThread = await drafting.newConversation();
    const idle = (await (
      await draftPage.request.post('/api/conversations', { data: { title: 'idle' }, headers: origin })
    ).json()) as { thread_id: string };
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto('/');
    const chat = new StudioPage(page);
    await chat.byTestId('studio').waitFor();
    const busyThread = await chat.newConversation();
    await chat.send(QUESTION);
    await page.locator(STREAMED_TEXT).waitFor();
    const turn = Number(await chat.userMessages.last().getAttribute('data-turn'));

    first.child.kill('SIGTERM');
    // Before the drain a send on the busy thread is 409 (it is answering); once draining, 503.
    let refused = await page.request.post(`/api/conversations/${busyThread}/messages`, {
      data: { content: 'todo: Not now' },
      headers: origin,
    });
    while (refused.status() === 409) {
      await sleep(100);
      refused = await page.request.post(`/api/conversations/${busyThread}/messages`, {
        data: { content: 'todo: Not now' },
        headers: origin,
      });
    }
    expect(refused.status()).toBe(503);
    expect(refused.headers()['retry-after']).toBe('5');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    const idleSend = await page.request.post(`/api/conversations/${idle.thread_id}/messages`, {
      data: { content: 'todo: Not now either' },
      headers: origin,
    });
    expect(idleSend.status()).toBe(503);
    expect(idleSend.headers()['retry-after']).toBe('5');
    expect(((await idleSend.json()) as { error: { code: string } }).error.code).toBe('unavailable');

    // From the page: the draft stays, and the notice says why nothing was sent.
    await draftPage.bringToFront();
    await drafting.send('todo: Survive the restart');
    await drafting.byTestId('turn-error').getByText(RESTARTING, { exact: true }).waitFor();
    await draftPage.waitForFunction(
      () =>
        document.querySelector<HTMLTextAreaElement>('[data-testid="chat-input"]')?.value ===
        'todo: Survive the restart',
    );
    expect(await drafting.userMessages.count()).toBe(0);
    // The database waits for the drain.
    expect(existsSync(postmasterPid(first))).toBe(true);

    const exit = await exited(first.child);
    expect(exit.code).toBe(143);
    expect(existsSync(postmasterPid(first))).toBe(false);

    // What the drain itself left (read before any new boot could reclaim anything).
    const stored = await readStoppedStudio(first, busyThread, turn);
    expect(stored.leaseOwner).toBeNull();
    expect(stored.replies.map((r) => [r.status, r.reason])).toEqual([['interrupted', SERVER_STOPPED]]);
    const partial = stored.replies[0]!.content;
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(OFFLINE_HELP.length);
    expect(OFFLINE_HELP.startsWith(partial)).toBe(true);
    expect((await readStoppedStudio(first, draftThread, 1)).replies).toEqual([]);

    const second = await restartStudioServer(first);
    servers.push(second);
    await page.reload();
    const notice = chat.byTestId('reply-interrupted');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.getByTestId('reply-interrupted-reason').textContent()).toBe(
      `This reply was interrupted: ${SERVER_STOPPED}.`,
    );
    await chat.send('todo: Carry on');
    await chat.waitForReplies(1);
    expect((await chat.todos()).map((t) => t.text)).toEqual(['Carry on']);

    // Back up, the kept draft goes out as it was.
    await draftPage.bringToFront();
    await drafting.byTestId('chat-input').press('Enter');
    await drafting.waitForReplies(1);
    expect((await drafting.todos()).map((t) => t.text)).toEqual(['Survive the restart']);
    await context.close();
  });

  test('a second SIGTERM during the drain stops at once: the reply in flight is left unstored and its lease held, for the next boot', async () => {
    test.setTimeout(300_000);
    // A 600 s grace and a reply of at least 54 s: only the second signal can end the process soon,
    // and a drain that ran on would store the reply and free the lease.
    const first = await startStudioServer({
      env: {
        ...LIFECYCLE_ENV,
        TRELLIS_OFFLINE_CHUNK_DELAY_MS: '1000',
        TRELLIS_SHUTDOWN_GRACE_SECONDS: '600',
      },
    });
    servers.push(first);
    const client = new ApiClient(first.baseUrl);
    await client.signUp(uniqueEmail('twice'));
    const { thread_id: threadId } = await client.json<{ thread_id: string }>(
      'POST',
      '/api/conversations',
      {},
      201,
    );
    const streaming = await startStreamingTurn(client, threadId, QUESTION);

    first.child.kill('SIGTERM');
    let refused = await client.request('POST', `/api/conversations/${threadId}/messages`, {
      content: 'todo: Not now',
    });
    while (refused.status === 409) {
      await sleep(100);
      refused = await client.request('POST', `/api/conversations/${threadId}/messages`, {
        content: 'todo: Not now',
      });
    }
    expect(refused.status).toBe(503);
    // shutdown.ts counts two deliveries within 500 ms as one (a Ctrl+C reaching `npm start` and the
    // server); this one comes well after.
    await sleep(1_500);
    expect(first.child.exitCode).toBeNull();
    first.child.kill('SIGTERM');
    const exit = await exited(first.child);
    expect(exit.code).toBe(143);

    const stored = await readStoppedStudio(first, threadId, streaming.turnIndex);
    expect(stored.replies).toEqual([]);
    expect(stored.leaseOwner).not.toBeNull();
  });

  // `npm start` as a person or a process manager runs it: npm, the shell npm runs the script with,
  // scripts/start.ts, then the server. A process manager signals npm alone; a terminal's Ctrl+C
  // reaches every process of the group (the server counts those deliveries as one signal).
  const stops = [
    ['a SIGTERM sent to npm', (npm: ChildProcess) => npm.kill('SIGTERM')],
    ['Ctrl+C (SIGINT to the whole process group)', (npm: ChildProcess) => process.kill(-npm.pid!, 'SIGINT')],
  ] as const;
  for (const [how, stop] of stops) {
    test(`under \`npm start\`, ${how} reaches the studio: it drains the reply in flight, then stops PostgreSQL`, async () => {
      test.setTimeout(300_000);
      const dataDir = path.join(tmpdir(), `trellis-e2e-${randomBytes(5).toString('hex')}`);
      await mkdir(dataDir, { recursive: true, mode: 0o755 });
      const port = await freePort();
      const pgPort = await freePort();
      const baseUrl = `http://127.0.0.1:${port}`;
      // Its own process group, as in a terminal; the cleanup reaches whatever npm started through it.
      const npm = spawn('npm', ['start'], {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: String(port),
          TRELLIS_DATA_DIR: dataDir,
          TRELLIS_PG_PORT: String(pgPort),
          LLM_PROVIDER: 'offline',
          LOG_LEVEL: 'warn',
          NEXT_TELEMETRY_DISABLED: '1',
          ...LIFECYCLE_ENV,
          TRELLIS_OFFLINE_CHUNK_DELAY_MS: '300',
          TRELLIS_SHUTDOWN_GRACE_SECONDS: '3',
        },
      });
      let output = '';
      npm.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-8000)));
      npm.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-8000)));
      const stopped = exited(npm);
      try {
        await waitForHealthy(baseUrl, 180_000, npm).catch((error: unknown) => {
          throw new Error(`${String(error)}\n--- npm start output ---\n${output}`);
        });
        const client = new ApiClient(baseUrl);
        await client.signUp(uniqueEmail('npm-start'));
        const { thread_id: threadId } = await client.json<{ thread_id: string }>(
          'POST',
          '/api/conversations',
          {},
          201,
        );
        // At least 54 × 300 ms ≈ 16 s of reply against a 3 s grace: the drain interrupts it.
        const streaming = await startStreamingTurn(client, threadId, QUESTION);

        stop(npm);
        // Bounded, so a studio that never exits fails here and the cleanup below still runs.
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          stopped,
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`npm start did not exit\n--- npm start output ---\n${output}`)),
              150_000,
            );
          }),
        ]).finally(() => clearTimeout(timer));
        await streaming.ended;
        // Nothing of the studio is left running: not the server, not its database. The studio exits
        // at the end of its grace period at the latest (3 s here, a promise to whoever sent the
        // signal), asking the postmaster for a fast shutdown on its way out; on a loaded machine that
        // shutdown's checkpoint can finish a moment after npm has exited (it failed a clean-clone run
        // so), so the postmaster's lock file is awaited, not read once.
        await expect(fetch(`${baseUrl}/api/health`)).rejects.toThrow();
        await expect.poll(() => existsSync(path.join(dataDir, 'postgres', 'postmaster.pid')), { timeout: 30_000 }).toBe(false);
        const stored = await readStoppedStudio({ dataDir, pgPort }, threadId, streaming.turnIndex);
        expect(stored.leaseOwner).toBeNull();
        expect(stored.replies.map((r) => [r.status, r.reason])).toEqual([['interrupted', SERVER_STOPPED]]);
        expect(OFFLINE_HELP.startsWith(stored.replies[0]!.content)).toBe(true);
        expect(stored.replies[0]!.content.length).toBeGreaterThan(0);
      } finally {
        // npm's group, then the studio's own (serve.ts), found through its postmaster's parent.
        for (const group of [npm.pid!, ...studioGroup(dataDir)]) {
          try {
            process.kill(-group, 'SIGKILL');
          } catch {
            // Gone already, as it should be.
          }
        }
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  }
});
