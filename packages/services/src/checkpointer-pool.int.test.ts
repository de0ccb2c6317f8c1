import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '@trellis/db/testing';
import { createCheckpointerPool } from './checkpointer-pool';
import { connectAdmin } from './testing/test-harness';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const pool = createCheckpointerPool(testDatabaseUrl(), { max: 2, logger });
const admin = connectAdmin();
afterAll(async () => {
  await pool.end();
  await admin.close();
});

describe('the checkpointer pool', () => {
  it('commits without waiting for the WAL flush on every connection it opens, while the transcript connections wait', async () => {
    // Two connections held at once: the pool opens both, and each runs its setup first.
    const [a, b] = await Promise.all([pool.connect(), pool.connect()]);
    try {
      for (const client of [a, b]) {
        const { rows } = await client.query<{ synchronous_commit: string }>('show synchronous_commit');
        expect(rows[0]?.synchronous_commit).toBe('off');
      }
    } finally {
      a.release();
      b.release();
    }
    const [transcript] = await admin.sql<{ synchronous_commit: string }[]>`show synchronous_commit`;
    expect(transcript?.synchronous_commit).toBe('on');
  });
});
