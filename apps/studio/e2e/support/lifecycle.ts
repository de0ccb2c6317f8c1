// What the lifecycle specs need around a studio process: a turn streamed over
// HTTP, the process's exit, and a look into its embedded database once it has
// stopped (to read what the stopping process itself left there).
import path from 'node:path';
import { createDb, startEmbeddedPostgres } from '@trellis/db';
import type postgres from 'postgres';
import type { ApiClient } from './api-client';

/** The reason a reply stopped by a stopping (or dead) studio process carries. */
export const SERVER_STOPPED = 'the server stopped during this reply';

export interface StreamingTurn {
  turnIndex: number;
  /** Settles when the stream ends (normally, or because the server went away). */
  ended: Promise<void>;
}

/** Sends a message and resolves once the reply's first token has arrived; the rest is read in the background. */
export async function startStreamingTurn(
  client: ApiClient,
  threadId: string,
  content: string,
): Promise<StreamingTurn> {
  const response = await client.request('POST', `/api/conversations/${threadId}/messages`, { content });
  if (response.status !== 200 || !response.body)
    throw new Error(`send: ${response.status} ${await response.text()}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes('event: token')) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before its first token:\n${text}`);
    text += decoder.decode(value, { stream: true });
  }
  const turn = /event: turn\ndata: (\{.*\})/.exec(text);
  if (!turn?.[1]) throw new Error(`no turn event in:\n${text}`);
  const ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // The server went away mid-stream: what matters is what it stored.
    }
  })();
  return { turnIndex: (JSON.parse(turn[1]) as { turn_index: number }).turn_index, ended };
}

export interface StoredTurn {
  /** The assistant rows of the turn. */
  replies: { status: string; reason: string | null; content: string }[];
  /** Who holds the thread's lease (null: free). */
  leaseOwner: string | null;
}

/**
 * Starts the embedded PostgreSQL of a stopped studio's data folder, reads one
 * turn of one thread, and stops it again.
 */
export async function readStoppedStudio(
  server: { dataDir: string; pgPort: number },
  threadId: string,
  turnIndex: number,
): Promise<StoredTurn> {
  const pg = await startEmbeddedPostgres({
    dataDir: path.join(server.dataDir, 'postgres'),
    port: server.pgPort,
  });
  const handle = createDb({ url: pg.url, max: 1 });
  try {
    const sql: postgres.Sql = handle.sql;
    const replies = await sql<{ status: string; reason: string | null; content: string }[]>`
      select status, reason, content from messages
      where thread_id = ${threadId} and turn_index = ${turnIndex} and role = 'assistant' order by seq`;
    const [conversation] = await sql<{ lease_owner: string | null }[]>`
      select lease_owner from conversations where thread_id = ${threadId}`;
    if (!conversation) throw new Error(`no conversation ${threadId}`);
    return { replies: [...replies], leaseOwner: conversation.lease_owner };
  } finally {
    await handle.close();
    await pg.stop();
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
