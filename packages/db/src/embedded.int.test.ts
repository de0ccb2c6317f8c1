import { spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded';
import { freePort } from './testing/free-port';

describe('embedded PostgreSQL', () => {
  const root = path.join(tmpdir(), `trellis-embedded-${randomBytes(4).toString('hex')}`);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('recovers a postmaster orphaned by a SIGKILLed parent, data intact', async () => {
    await mkdir(root, { recursive: true, mode: 0o755 });
    const dataDir = path.join(root, 'data');
    const port = await freePort();
    // A child process starts Postgres, writes a row, then is SIGKILLed.
    const script = `
      import { startEmbeddedPostgres } from './packages/db/src/embedded.ts';
      import postgres from 'postgres';
      const pg = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: ${port} });
      const sql = postgres(pg.url, { max: 1 });
      await sql\`create table kept (v text)\`;
      await sql\`insert into kept values ('before the kill')\`;
      await sql.end();
      console.log('READY');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('READY')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited early with ${code}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));

    const pg = await startEmbeddedPostgres({ dataDir, port });
    try {
      const sql = postgres(pg.url, { max: 1 });
      const rows = await sql<{ v: string }[]>`select v from kept`;
      await sql.end();
      expect(rows.map((r) => r.v)).toEqual(['before the kill']);
    } finally {
      await pg.stop();
    }
  });
});
