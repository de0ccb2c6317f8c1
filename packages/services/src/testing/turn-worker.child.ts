// A studio process without the web server, for the crash and shutdown tests
// (and the soak): registers its instance, sweeps, runs turns it is told to run
// on stdin (one JSON command a line), reports on stdout (one JSON event a
// line), and stops the way the studio does (installShutdownHandlers). With
// WORKER_PG_DIR it owns an embedded PostgreSQL, like `npm start`.
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { OfflineChatModel } from '@trellis/agent';
import { createDb, startEmbeddedPostgres, type RunningPostgres } from '@trellis/db';
import { createTestUser } from '@trellis/db/testing';
import { isAppError } from '@trellis/domain';
import { createServiceDeps } from '../deps';
import { migrateAll } from '../migrate-all';
import { createConversation } from '../conversations/create-conversation';
import { createBranch } from '../branching/create-branch';
import { sweepPendingBranches } from '../branching/sweep-pending-branches';
import { importTranscript } from '../transcripts/import-transcript';
import { sendTurn } from '../turns/send-turn';
import { startStudioInstance } from '../turns/studio-instance';
import { installShutdownHandlers } from '../turns/shutdown';

const emit = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
const logger = {
  info: (obj: object, msg?: string) => emit({ ev: 'log', level: 'info', msg, ...obj }),
  warn: (obj: object, msg?: string) => emit({ ev: 'log', level: 'warn', msg, ...obj }),
  error: (obj: object, msg?: string) => emit({ ev: 'log', level: 'error', msg, err: String((obj as { err?: unknown }).err), ...obj }),
};

let postgres: RunningPostgres | undefined;
let databaseUrl = process.env.DATABASE_URL ?? '';
if (process.env.WORKER_PG_DIR) {
  postgres = await startEmbeddedPostgres({ dataDir: process.env.WORKER_PG_DIR, port: Number(process.env.WORKER_PG_PORT) });
  databaseUrl = postgres.url;
  process.once('exit', () => postgres?.signalShutdown());
}
await migrateAll({ databaseUrl });

const deps = createServiceDeps({
  databaseUrl,
  model: { instance: new OfflineChatModel({ chunkDelayMs: Number(process.env.WORKER_CHUNK_DELAY_MS ?? 0) }) },
  instanceId: randomUUID(),
  logger,
});
const instance = await startStudioInstance(deps, {
  timing: { heartbeatMs: 1_000, staleSeconds: Number(process.env.WORKER_STALE_SECONDS ?? 15) },
  singleProcess: postgres !== undefined,
  sweepEveryMs: 1_000,
});
// The studio's pending-branch sweeper, on a short grace when asked (the soak).
const pendingGrace = Number(process.env.WORKER_PENDING_GRACE_SECONDS ?? 300);
setInterval(() => {
  sweepPendingBranches(deps, { olderThanSeconds: pendingGrace }).catch((error: unknown) =>
    logger.warn({ err: error }, 'pending branch sweep failed'),
  );
}, 1_000).unref();
installShutdownHandlers({
  graceMs: Number(process.env.WORKER_GRACE_MS ?? 10_000),
  logger,
  drain: async (grace) => {
    const report = await instance.drain(grace);
    emit({ ev: 'drained', ...report });
    await deps.close();
    return report;
  },
  ...(postgres ? { stopDatabase: stopPostgres(postgres) } : {}),
  exit: (code) => process.exit(code),
});

function stopPostgres(running: RunningPostgres) {
  return async () => {
    await running.stop();
    emit({ ev: 'pg-stopped' });
  };
}

interface Command {
  op: 'setup' | 'thread' | 'turn' | 'branch' | 'import';
  id: string;
  userId?: string;
  threadId?: string;
  content?: string;
  fromTurn?: number;
  transcript?: string;
}

const admin = createDb({ url: databaseUrl, max: 2 });

async function run(command: Command): Promise<Record<string, unknown>> {
  const actor = { userId: command.userId ?? '' };
  switch (command.op) {
    case 'setup': {
      const user = await createTestUser(admin);
      const conversation = await createConversation(deps, { userId: user.id }, {});
      return { userId: user.id, threadId: conversation.thread_id };
    }
    case 'thread': {
      const conversation = await createConversation(deps, actor, {});
      return { threadId: conversation.thread_id };
    }
    case 'turn': {
      const turn = await sendTurn(deps, actor, { threadId: command.threadId ?? '', content: command.content ?? 'hello' });
      emit({ ev: 'turn-open', id: command.id, turnIndex: turn.turnIndex });
      let streamed = false;
      for await (const event of turn) {
        if (event.event === 'token' && !streamed) {
          streamed = true;
          emit({ ev: 'streaming', id: command.id });
        }
      }
      const outcome = await turn.settled;
      return { status: outcome.status, turnIndex: outcome.turnIndex };
    }
    case 'branch': {
      const branch = await createBranch(deps, actor, { threadId: command.threadId ?? '', from_turn: command.fromTurn ?? 0 });
      return { threadId: branch.thread_id };
    }
    case 'import': {
      const imported = await importTranscript(deps, actor, { content: command.transcript ?? '' });
      return { threadIds: imported.conversations.map((c) => c.thread_id) };
    }
  }
}

emit({ ev: 'ready', instanceId: instance.id, databaseUrl });
for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const command = JSON.parse(line) as Command;
  run(command).then(
    (result) => emit({ ev: 'result', id: command.id, ...result }),
    (error: unknown) =>
      emit({ ev: 'refused', id: command.id, code: isAppError(error) ? error.code : 'internal', message: String(error) }),
  );
}
