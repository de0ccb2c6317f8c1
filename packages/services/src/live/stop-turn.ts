// Stop is a request (docs/architecture.md, "A live family"), not a dropped connection: the turn
// stops wherever it runs — here at once, on another studio process through the family channel
// (`stop_requested`, which that process's LiveTurns acts on) — and its reply is stored
// `interrupted` with the reason "you stopped this reply".
import { sql } from 'drizzle-orm';
import { AppError, type StopTurnResult } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { appendFamilyEvent } from './family-events';

export async function stopTurn(
  deps: Pick<ServiceDeps, 'db' | 'liveTurns'>,
  actor: ThreadActor,
  input: { threadId: string; turn: number },
): Promise<StopTurnResult> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'edit');
  if (input.turn > conversation.turnIndex) throw AppError.notFound(`Turn ${input.turn}`);
  const result = { thread_id: input.threadId, turn_index: input.turn };
  if (deps.liveTurns.stop(input.threadId, input.turn)) {
    await appendFamilyEvent(deps.db, { threadId: input.threadId, kind: 'stop_requested', data: { turn_index: input.turn } });
    return { ...result, is_running: true };
  }
  // Running elsewhere when the lease is held for turn k and the reply is not stored yet.
  const [running] = await deps.db.execute<{ id: string | null }>(sql`
    select 1 as id from conversations c
    where c.thread_id = ${input.threadId} and c.turn_index = ${input.turn} and c.lease_owner is not null
      and not exists (select 1 from messages m where m.thread_id = c.thread_id and m.turn_index = ${input.turn}
        and m.role = 'assistant')`);
  if (!running) return { ...result, is_running: false };
  await appendFamilyEvent(deps.db, { threadId: input.threadId, kind: 'stop_requested', data: { turn_index: input.turn } });
  return { ...result, is_running: true };
}
