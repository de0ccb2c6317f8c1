// One user turn, end to end: lease → turn k with snapshot k
// and the user message (one transaction) → the agent, streamed → the reply →
// lease released. Everything that can refuse the turn (404, 403, 409) happens
// before the first event, so the route can answer with plain JSON.
import { redactSecrets, toPathRef, withRefsNote, type ApplyProvenance, type FailureCode, type PathRefInput, type TurnEvent } from '@trellis/domain';
import { isProviderCallError, type TurnResult, type TurnUsage, type WorkspacePort } from '@trellis/agent';
import type { StoredToolCall } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { createDbWorkspacePort } from '../workspace/db-workspace-port';
import { beginTurn, type OpenedTurn } from './begin-turn';
import { storeReplyAndRelease, type ReplyStatus } from './finish-turn';
import { isTurnInterruption, REASON_DISCONNECTED, TurnInterruption } from './turn-gate';
import { recordStepChanges } from '../compare/record-step-changes';
import { loadLineage } from '../lineage/load-lineage';
import { DEFAULT_LEASE_TIMING, releaseLease, renewLease, type LeaseTiming } from './turn-lease';
import { LiveTurn } from '../live/live-turns';
import { resolveRefs, type ResolvedRef } from '../paths/resolve-refs';
import { pathReaderOf, type TurnPathReader } from '../paths/path-reader';

export interface SendTurnInput {
  threadId: string;
  content: string;
  /** Steps of other paths of the family the message brings in (checked before the turn opens: 422 outside the family). */
  refs?: readonly PathRefInput[] | undefined;
  /** References the caller has already checked (resolveRefs, against this thread's family): used as they are, `refs` is ignored. */
  checkedRefs?: readonly ResolvedRef[] | undefined;
  /**
   * Aborts the model (the reply is stored `interrupted`). Routes do not pass their request's signal:
   * a turn outlives the request that started it, and Stop is its own request (stop-turn.ts).
   */
  signal?: AbortSignal | undefined;
  /**
   * An apply's summary turn: it opens with this apply entry (`content` is its text), the model is
   * asked `prompt` instead, and `fileReply` stores what it answered before the lease is released.
   */
  applied?: {
    provenance: ApplyProvenance;
    prompt: string;
    fileReply: (db: TurnDeps['db'], reply: { turnIndex: number; content: string }) => Promise<void>;
  };
}

export interface TurnOutcome {
  turnIndex: number;
  /** `null` when the reply could not be stored (the database failed mid-turn). */
  status: ReplyStatus | null;
  messageId: string | null;
}

/**
 * The events of a running turn: `turn` first, then `token`/`tool`, then `done`
 * (or `error`). The turn runs whether or not anyone reads: stopping the
 * iteration early only unsubscribes this reader (the process's `liveTurns` has the turn).
 */
export interface TurnStream extends AsyncIterable<TurnEvent> {
  readonly turnIndex: number;
  /** Settles once the reply is stored and the lease released. Never rejects. */
  readonly settled: Promise<TurnOutcome>;
}

type TurnDeps = Pick<ServiceDeps, 'db' | 'agent' | 'logger'> &
  Partial<Pick<ServiceDeps, 'gate' | 'instanceId' | 'liveTurns' | 'family' | 'secrets'>>;

const REASON_LEASE_LOST = 'another process took this conversation over during this reply';
const REASON_FAILED = 'the model failed to answer';

export async function sendTurn(
  deps: TurnDeps,
  actor: ThreadActor,
  input: SendTurnInput,
  options: { lease?: LeaseTiming } = {},
): Promise<TurnStream> {
  const timing = options.lease ?? DEFAULT_LEASE_TIMING;
  deps.gate?.admit('your message');
  const refs = input.checkedRefs ?? (await resolveRefs(deps.db, actor, input.threadId, input.refs));
  const opened = await beginTurn(
    deps.db,
    actor,
    {
      threadId: input.threadId,
      content: input.content,
      applyEntry: input.applied && { provenance: input.applied.provenance },
      refs: refs.map(toPathRef),
    },
    timing,
    deps.instanceId ?? null,
  );
  return startTurn(deps, input, opened, timing, pathReaderOf(deps, actor, refs));
}

/** How a turn that opened (a send, or a retry in place) asks its question. */
export type OpenedRun = OpenedTurn & {
  /** The reply's attempt number: 1 for a send, the next one for a retry in place. */
  attempt: number;
};

/**
 * Runs the agent on a turn whose lease is held and whose question is stored; events stream out.
 * `reader`: the message's references to other paths, read as the person who sent it (none: `read_path` is not offered).
 */
export function startTurn(
  deps: TurnDeps,
  input: SendTurnInput,
  opened: OpenedRun | OpenedTurn,
  timing: LeaseTiming,
  reader?: TurnPathReader,
): TurnStream {
  const run: OpenedRun = { attempt: 1, ...opened };
  // The agent's first model call reads the workspace the turn opened on, without a round trip. Its
  // document writes name the cited step they copy from, when they copy one verbatim.
  const workspace = createDbWorkspacePort(
    deps.db,
    { threadId: input.threadId, turnIndex: opened.turnIndex },
    { opening: opened.workspace, ...(reader && { sourceOf: (text: string) => reader.sourceOf(text) }) },
  );
  const abort = new AbortController();
  const onClientAbort = () => abort.abort(new TurnInterruption(REASON_DISCONNECTED));
  if (input.signal?.aborted) onClientAbort();
  else input.signal?.addEventListener('abort', onClientAbort, { once: true });
  // The server owns the turn: readers subscribe to it (the first is this call's caller), and the
  // process's registry lets a Stop request, or a tab that opens the path later, find it.
  const interrupt = (reason: TurnInterruption) => abort.abort(reason);
  const events = deps.liveTurns
    ? deps.liveTurns.open(input.threadId, opened.turnIndex, opened.familyId, interrupt)
    : new LiveTurn(input.threadId, opened.turnIndex, interrupt, deps.family ?? null, opened.familyId);
  events.push({
    event: 'turn',
    data: { turn_index: opened.turnIndex, thread_id: input.threadId, ...(run.attempt > 1 && { attempt: run.attempt }) },
  });
  const first = events.subscribe();

  const settled = runTurn(deps, input, run, workspace, timing, abort, events, reader).finally(() => {
    input.signal?.removeEventListener('abort', onClientAbort);
    if (deps.liveTurns) deps.liveTurns.close(events);
    else events.end();
  });
  deps.gate?.track(settled, interrupt);
  return { turnIndex: opened.turnIndex, settled, [Symbol.asyncIterator]: () => first };
}

async function runTurn(
  deps: TurnDeps,
  input: SendTurnInput,
  opened: OpenedRun,
  workspace: WorkspacePort,
  timing: LeaseTiming,
  abort: AbortController,
  events: LiveTurn,
  reader: TurnPathReader | undefined,
): Promise<TurnOutcome> {
  const { threadId } = input;
  const { turnIndex, leaseOwner } = opened;
  const log = { threadId, turnIndex };
  let isFinished = false;
  const heartbeat = setInterval(() => {
    renewLease(deps.db, threadId, leaseOwner, timing).then(
      (held) => {
        if (held || isFinished) return;
        deps.logger.warn(log, 'turn lease lost; interrupting the turn');
        abort.abort(new TurnInterruption(REASON_LEASE_LOST));
      },
      (error: unknown) => deps.logger.warn({ ...log, err: error }, 'turn lease renewal failed'),
    );
  }, timing.renewEveryMs);
  heartbeat.unref();

  let isReleased = false;
  try {
    const reply = await runAgent(deps, input, opened, workspace, abort.signal, events, reader);
    if (input.applied && reply.status === 'complete') {
      await input.applied
        .fileReply(deps.db, { turnIndex, content: reply.content })
        .catch((error: unknown) => deps.logger.error({ ...log, err: error }, 'the summary artifact could not be stored'));
    }
    isFinished = true; // from here on the lease is ours to release, not to renew
    const citations = reader?.citations() ?? [];
    const { messageId } = await storeReplyAndRelease(deps.db, { threadId, turnIndex, leaseOwner, attempt: opened.attempt, citations, ...reply });
    isReleased = true;
    // The step change summary (a diff of the document) is computed after `done`, outside the turn's
    // latency. The graph of this process waits for it (TurnGate.followUpsOf); another process's graph
    // reads null until it is stored, and the next turn recomputes this step should it be lost.
    const summarize = () => loadLineage(deps.db, threadId).then((lineage) => recordStepChanges(deps.db, lineage, turnIndex));
    const onSummaryError = (error: unknown) => deps.logger.warn({ ...log, err: error }, 'the step change summary could not be stored');
    if (deps.gate) void deps.gate.followUp(threadId, summarize, onSummaryError);
    else void summarize().catch(onSummaryError);
    // `done` says how the stored reply ended: a turn the drain (or Stop) cut is `interrupted`, with its reason.
    events.push(
      reply.status === 'failed'
        ? {
            event: 'error',
            data: {
              code: 'upstream_failed',
              message: `This reply failed: ${reply.reason ?? REASON_FAILED}`,
              ...(reply.reasonCode !== null && { reason_code: reply.reasonCode }),
              ...(reply.retryAfterS !== null && { retry_after_s: reply.retryAfterS }),
            },
          }
        : { event: 'done', data: { turn_index: turnIndex, message_id: messageId, status: reply.status, reason: reply.reason } },
    );
    return { turnIndex, status: reply.status, messageId };
  } catch (error: unknown) {
    deps.logger.error({ ...log, err: error }, 'the turn could not be stored');
    events.push({ event: 'error', data: { code: 'internal', message: 'The reply could not be saved.' } });
    return { turnIndex, status: null, messageId: null };
  } finally {
    isFinished = true;
    clearInterval(heartbeat);
    if (!isReleased) {
      await releaseLease(deps.db, threadId, leaseOwner).catch((error: unknown) =>
        deps.logger.error({ ...log, err: error }, 'turn lease release failed; it expires on its own'),
      );
    }
  }
}

interface Reply {
  content: string;
  toolCalls: StoredToolCall[];
  status: ReplyStatus;
  reason: string | null;
  reasonCode: FailureCode | null;
  retryAfterS: number | null;
  usage: TurnUsage | null;
}

/**
 * The reason stored with an interrupted reply: the interruption's own, or a disconnect. The drain's
 * interruption may come from another bundled copy of this package (see `isTurnInterruption`).
 */
function interruptionReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return isTurnInterruption(reason) ? reason.message : REASON_DISCONNECTED;
}

/** Streams the agent's events out and returns what to store, whatever happened to the model. */
async function runAgent(
  deps: TurnDeps,
  input: SendTurnInput,
  opened: OpenedRun,
  workspace: WorkspacePort,
  signal: AbortSignal,
  events: LiveTurn,
  reader: TurnPathReader | undefined,
): Promise<Reply> {
  const tokens: string[] = [];
  const toolCalls: StoredToolCall[] = [];
  try {
    // A study participant's family runs under its condition, whoever sends the turn.
    const { condition } = opened;
    const run = deps.agent.runTurn({
      ...(condition && { condition: { systemPrompt: condition.systemPrompt, tools: condition.tools, model: condition.model } }),
      threadId: input.threadId,
      // The refs are named to the model (labels and where to read), never their content: that only
      // comes through `read_path`, a stored tool call.
      userMessage: input.applied?.prompt ?? withRefsNote(input.content, reader?.refs ?? []),
      userMessageId: opened.userMessageId,
      turnIndex: opened.turnIndex,
      workspace,
      signal,
      replacesAttempt: opened.attempt > 1,
      ...(reader && { paths: reader }),
    });
    let step = await run.next();
    while (!step.done) {
      const event = step.value;
      if (event.type === 'token') {
        tokens.push(event.text);
        events.push({ event: 'token', data: { text: event.text } });
      } else if (event.type === 'status') {
        const { state, retryInS, retry, reason } = event;
        events.push({
          event: 'status',
          data: { state, ...(retryInS !== undefined && { retry_in_s: retryInS }), ...(retry !== undefined && { retry }), ...(reason !== undefined && { reason }) },
        });
      } else {
        const { name, args, result, isError } = event;
        toolCalls.push({ id: `call_${toolCalls.length}`, name, args, result, is_error: isError });
        events.push({ event: 'tool', data: { name, args, result, is_error: isError } });
      }
      step = await run.next();
    }
    return fromResult(step.value, signal);
  } catch (error: unknown) {
    // What streamed before the failure is kept; an abort is an interruption, not a failure.
    const partial = { content: tokens.join(''), toolCalls, usage: null };
    if (signal.aborted) {
      return { ...partial, status: 'interrupted', reason: interruptionReason(signal), reasonCode: null, retryAfterS: null };
    }
    const log = { threadId: input.threadId, turnIndex: opened.turnIndex };
    if (isProviderCallError(error)) {
      // The reason is already redacted; the SDK's error object (request details) is never logged.
      const { code, status, retryAfterS } = error.failure;
      deps.logger.warn({ ...log, reason_code: code, status, reason: error.message }, 'the model call failed');
      return { ...partial, status: 'failed', reason: error.message, reasonCode: code, retryAfterS: retryAfterS ?? null };
    }
    deps.logger.error({ ...log, err: redactedError(error, deps.secrets ?? []) }, 'the model run failed');
    return { ...partial, status: 'failed', reason: REASON_FAILED, reasonCode: null, retryAfterS: null };
  }
}

/** An error for the log without anything key-shaped in its message or stack. */
function redactedError(error: unknown, secrets: readonly string[]): { name: string; message: string; stack?: string } {
  const e = error instanceof Error ? error : new Error(String(error));
  return {
    name: e.name,
    message: redactSecrets(e.message, secrets),
    ...(e.stack !== undefined && { stack: redactSecrets(e.stack, secrets).slice(0, 2000) }),
  };
}

function fromResult(result: TurnResult, signal: AbortSignal): Reply {
  const interrupted = result.interrupted || signal.aborted;
  return {
    reasonCode: null,
    retryAfterS: null,
    usage: result.usage ?? null,
    content: result.content,
    toolCalls: result.toolCalls.map(({ id, name, args, result: output, isError }) => ({
      id,
      name,
      args,
      result: output,
      is_error: isError,
    })),
    status: interrupted ? 'interrupted' : 'complete',
    reason: interrupted ? interruptionReason(signal) : null,
  };
}
