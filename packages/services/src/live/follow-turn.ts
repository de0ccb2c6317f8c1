// A tab that opens a path while its turn runs reads the reply from where it is: the text so far,
// then the rest (docs/architecture.md, "A live family"). On the process that runs the turn this is
// one more subscriber of it; on another process the running process is asked (over the family
// channel) to send the text from the start and then what follows, and the stored reply closes it.
import { sql } from 'drizzle-orm';
import { EventChannel } from '@trellis/agent';
import { AppError, type TurnEvent } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import type { FamilyNotification } from './family-hub';

type FollowDeps = Pick<ServiceDeps, 'db' | 'family' | 'liveTurns' | 'logger'>;

interface StoredReply extends Record<string, unknown> {
  id: string;
  content: string;
  status: 'complete' | 'interrupted' | 'failed';
  reason: string | null;
  tool_calls: { name: string; args: Record<string, unknown>; result?: string; is_error?: boolean }[];
}

/** How often a follower on another process looks for the stored reply (should the `turn_finished` event be late). */
const POLL_MS = 3_000;

export async function followTurn(
  deps: FollowDeps,
  actor: ThreadActor,
  input: { threadId: string; turn: number; pollMs?: number },
): Promise<AsyncIterable<TurnEvent>> {
  const { conversation } = await requireThreadAccess(deps.db, actor, input.threadId, 'read');
  const local = deps.liveTurns.get(input.threadId, input.turn);
  if (local) return local.subscribe();
  if (input.turn > conversation.turnIndex || input.turn < 1) throw AppError.notFound(`Turn ${input.turn}`);
  const stored = await readReply(deps, input.threadId, input.turn);
  const isRunning = conversation.turnIndex === input.turn && conversation.leaseOwner !== null;
  // A stored reply while the turn still runs is an earlier attempt (a retry is answering it again):
  // follow the running attempt, and let only a reply stored after that one close it.
  if (stored && !isRunning) return replayStored(input.threadId, input.turn, stored);
  if (!isRunning) throw AppError.notFound(`Turn ${input.turn}`);
  return followRemote(deps, conversation.rootThreadId, input.threadId, input.turn, input.pollMs ?? POLL_MS, stored?.id ?? null);
}

async function readReply(deps: Pick<ServiceDeps, 'db'>, threadId: string, turn: number): Promise<StoredReply | null> {
  const [row] = await deps.db.execute<StoredReply>(sql`
    select id::text as id, content, status, reason, tool_calls from messages
    where thread_id = ${threadId} and turn_index = ${turn} and role = 'assistant' order by seq desc limit 1`);
  return row ?? null;
}

function endEvents(turn: number, reply: StoredReply, streamed: string): TurnEvent[] {
  const events: TurnEvent[] = [];
  const rest = reply.content.startsWith(streamed) ? reply.content.slice(streamed.length) : '';
  if (rest) events.push({ event: 'token', data: { text: rest } });
  if (streamed === '') {
    for (const call of reply.tool_calls) {
      events.push({ event: 'tool', data: { name: call.name, args: call.args, result: call.result ?? '', is_error: call.is_error ?? false } });
    }
  }
  events.push(
    reply.status === 'failed'
      ? { event: 'error', data: { code: 'upstream_failed', message: 'The model failed to answer; the turn keeps what it produced.' } }
      : {
          event: 'done',
          data: { turn_index: turn, message_id: reply.id, status: reply.status === 'interrupted' ? 'interrupted' : 'complete', reason: reply.reason ?? null },
        },
  );
  return events;
}

function replayStored(threadId: string, turn: number, reply: StoredReply): AsyncIterable<TurnEvent> {
  const channel = new EventChannel<TurnEvent>();
  channel.push({ event: 'turn', data: { turn_index: turn, thread_id: threadId } });
  for (const event of endEvents(turn, reply, '')) channel.push(event);
  channel.close();
  return channel;
}

async function followRemote(
  deps: FollowDeps,
  familyId: string,
  threadId: string,
  turn: number,
  pollMs: number,
  earlierReplyId: string | null,
): Promise<AsyncIterable<TurnEvent>> {
  const channel = new EventChannel<TurnEvent>(() => cleanUp());
  let text = '';
  let isDone = false;
  const finish = async () => {
    if (isDone) return;
    const reply = await readReply(deps, threadId, turn);
    if (!reply || reply.id === earlierReplyId || isDone) return;
    isDone = true;
    for (const event of endEvents(turn, reply, text)) channel.push(event);
    cleanUp();
    channel.close();
  };
  const onFailure = (error: unknown) => deps.logger.warn({ err: error, threadId, turn }, 'following a turn of another process failed');
  const stopListening = deps.family.onNotification((n: FamilyNotification) => {
    if (n.thread !== threadId || n.turn !== turn || isDone) return;
    if (n.kind === 'turn_progress' && typeof n.offset === 'number' && typeof n.text === 'string') {
      // Pieces arrive in order; one already seen (a replay from 0) is skipped, a gap is left for the stored reply.
      if (n.offset <= text.length && n.offset + n.text.length > text.length) {
        const piece = n.text.slice(text.length - n.offset);
        text += piece;
        channel.push({ event: 'token', data: { text: piece } });
      }
    } else if (n.kind === 'turn_finished') {
      void finish().catch(onFailure);
    }
  });
  const poll = setInterval(() => void finish().catch(onFailure), pollMs);
  poll.unref();
  function cleanUp() {
    clearInterval(poll);
    stopListening();
  }
  channel.push({ event: 'turn', data: { turn_index: turn, thread_id: threadId } });
  await deps.family.start();
  // Ask the process running the turn for its text from the start (it then keeps sending what follows).
  await deps.family.notify({ family: familyId, thread: threadId, kind: 'turn_replay', turn, offset: 0 });
  // The turn may have ended between the first read and listening.
  void finish().catch(onFailure);
  return channel;
}
