import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client';
import { uniqueEmail } from './support/browser';
import { restartStudioServer, startStudioServer, type StudioServer } from './support/studio-server';

describe('studio process lifecycle', () => {
  const servers: StudioServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
    await servers[0]?.dispose();
  });

  it('comes back after SIGKILL with its data intact, and SIGTERM stops Postgres cleanly', async () => {
    const first = await startStudioServer({ env: { DATABASE_URL: '' } });
    servers.push(first);
    const client = new ApiClient(first.baseUrl);
    const email = uniqueEmail('restart');
    await client.signUp(email);
    const { token } = await client.json<{ token: string }>('POST', '/api/tokens', { name: 'survivor' }, 201);

    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    // The postmaster outlives its killed parent; the next start must recover it.
    expect(existsSync(path.join(first.dataDir, 'postgres', 'postmaster.pid'))).toBe(true);

    const second = await restartStudioServer(first);
    servers.push(second);
    const rest = new ApiClient(second.baseUrl).withToken(token);
    expect((await rest.request('GET', '/api/conversations')).status).toBe(200);
    const listed = await client.json<{ tokens: { name: string }[] }>('GET', '/api/tokens');
    expect(listed.tokens.map((t) => t.name)).toEqual(['survivor']);

    await second.stop();
    expect(second.child.exitCode ?? second.child.signalCode).not.toBeNull();
    expect(existsSync(path.join(first.dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  });
});
