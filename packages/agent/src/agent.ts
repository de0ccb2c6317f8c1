// createAgent / runTurn: one user turn through the graph, streamed.
//
// Streaming runs the graph (`_streamIterator`, what `graph.stream` wraps) in the
// one stream mode `custom`, with a writer of ours: the chat node writes the
// model's text as it streams, the tools node one payload per executed tool. The
// `messages` mode would give the same tokens through a
// LangChain callback handler that sees every runnable of the run and every
// token (measurably slower per turn); `streamEvents` emits an event for every
// runnable in the graph (nodes, bound models, reducers) that we would only
// filter out again.
//
// Checkpoints are written with durability "exit": one checkpoint per turn
// instead of one per step, and a turn is all-or-nothing in the checkpointer —
// a failed run never leaves an assistant tool call without its results. An
// aborted run is settled (settle.ts) so the thread is idle and well-formed.
// TrellisCheckpointSaver drops superseded checkpoints as it writes the new one
// (unless told to keep history), so a thread's checkpointer footprint is
// bounded by the context budget, whatever the number of turns.
//
// Runs on one thread must not overlap (LangGraph JS loses a turn): the
// services layer holds a per-thread lease in Postgres around runTurn.
import { randomUUID } from 'node:crypto';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, RemoveMessage, type BaseMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { isPrunableCheckpointer, type PrunableCheckpointer } from './checkpointer';
import { EventChannel } from './event-channel';
import { buildAgentGraph, type AgentGraph } from './graph';
import { CHAT_NODE } from './nodes/chat';
import type { TurnCondition } from './nodes/context';
import { ToolJournal } from './nodes/tool-journal';
import { settleThread } from './settle';
import { resolveBudget, type ContextBudget } from './state';
import { TurnCollector, type AgentEvent, type TurnResult } from './turn-collector';
import type { WorkspacePort } from './workspace-port';
import type { PathsPort } from './tools/read-path';

import { resolveModelCallPolicy, type ModelCallPolicy } from './nodes/model-call-policy';

export type { AgentEvent, TurnResult, TurnToolCall, TurnUsage } from './turn-collector';

export interface RunTurnInput {
  threadId: string;
  userMessage: string;
  /**
   * The id of the stored user message: the checkpointer's human message takes
   * it, so a process that finishes a dead process's turn can tell whether the
   * question reached the checkpointer (see {@link Agent.settleAbandonedTurn}).
   */
  userMessageId?: string;
  workspace: WorkspacePort;
  /** Aborting stops the model (and any tool not yet started); runTurn then returns what was produced. */
  signal?: AbortSignal;
  /**
   * The thread's turn counter as the caller's lease took it, when the caller keeps one: every run on
   * the thread — this process's or another's, a turn or the settling of a dead one — has its own,
   * one more than the run before. A turn numbered right after the one this agent last finished on
   * the thread then knows that nothing has written the thread since, without asking the checkpointer.
   */
  turnIndex?: number;
  /**
   * A retry in place: the question (`userMessageId`) is already in the working context,
   * with an earlier attempt's reply after it. That attempt — partial text, tool calls and results —
   * is removed and the question asked again, so the model never sees a failed or stopped attempt,
   * nor the question twice.
   */
  replacesAttempt?: boolean;
  /**
   * Set only when the user message references steps of other paths: `read_path` is offered and reads
   * through it. Without it nothing of another path can reach the model.
   */
  paths?: PathsPort;
  /** A study's condition for this turn: its instructions and the tools the agent keeps. */
  condition?: TurnCondition;
}

export interface Agent {
  runTurn(input: RunTurnInput): AsyncGenerator<AgentEvent, TurnResult>;
  /**
   * Makes the checkpointer agree with a transcript whose turn died with its
   * process (no run is in flight: the caller holds the thread's lease): a
   * half-written run is settled, and a question the checkpointer never saw is
   * recorded. Returns the reply text the checkpointer holds for that question
   * (empty when the run saved nothing), which the transcript then stores.
   */
  settleAbandonedTurn(input: { threadId: string; userMessageId: string; userMessage: string }): Promise<{ content: string }>;
}

export interface CreateAgentOptions {
  checkpointer: BaseCheckpointSaver;
  model: BaseChatModel;
  /** Bound on the working context kept per thread (default 40 messages). */
  contextBudget?: ContextBudget;
  /** How a model call waits, gives up and retries (LLM_MAX_RETRIES, LLM_TIMEOUT_SECONDS, the key to redact). */
  modelCalls?: Partial<ModelCallPolicy>;
  /** The configured model's name, recorded with the tokens a provider reports. */
  modelName?: string;
  /** Other models a study's condition may name, by name (`offline` beside a configured provider). */
  alternateModels?: Readonly<Record<string, BaseChatModel>>;
}

/** Graph recursion limit: ~12 rounds of tool calls per turn before the run fails. */
const RECURSION_LIMIT = 25;

export function createAgent(options: CreateAgentOptions): Agent {
  const budget = resolveBudget(options.contextBudget);
  const graph = buildAgentGraph({
    model: options.model,
    budget,
    checkpointer: options.checkpointer,
    chat: { policy: resolveModelCallPolicy(options.modelCalls), modelName: options.modelName, alternates: options.alternateModels },
  });
  const saver = options.checkpointer;
  /**
   * Per thread, the checkpoint a run of this agent finished on (idle and well-formed). The next turn
   * skips settling (a full state read) when that is still the latest, untouched checkpoint; anything
   * else — a run that stopped early, another process's run — settles as before.
   */
  const finishedAt = new Map<string, { checkpointId: string; turnIndex: number | undefined }>();
  const FINISHED_AT_LIMIT = 10_000;

  async function* runTurn(input: RunTurnInput): AsyncGenerator<AgentEvent, TurnResult> {
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(input.signal?.reason);
    if (input.signal?.aborted) forwardAbort();
    else input.signal?.addEventListener('abort', forwardAbort, { once: true });

    const human = new HumanMessage({ id: input.userMessageId ?? randomUUID(), content: input.userMessage });
    const collector = new TurnCollector();
    const journal = new ToolJournal();
    let state: 'running' | 'finished' | 'aborted' | 'failed' = 'running';
    let failure: unknown;
    const output = new EventChannel<unknown>();
    let run: Promise<void> | undefined;
    try {
      // A run that died without settling (crash, consumer gone) left work pending.
      const finished = finishedAt.get(input.threadId);
      finishedAt.delete(input.threadId);
      const isSettled = finished !== undefined && isPrunableCheckpointer(saver) && (await isUntouchedSince(saver, input, finished));
      if (!isSettled) await settleThread(graph, input.threadId);
      // Aborted before it started: no graph run at all (whether LangGraph would
      // write its input first is a race), just the settling below.
      if (controller.signal.aborted) throw controller.signal.reason ?? new Error('aborted');
      // The run itself, without `stream`'s wrapper: that re-enters the callback context and races
      // the signal for every chunk, and hands chunks over through a web stream. The run keeps the
      // signal (LangGraph stops on it), and a consumer that stops early aborts it (below). The
      // nodes' payloads come through a writer of ours, straight into `output`, rather than through
      // LangGraph's stream (which would look up the run's config and go through a web stream for
      // every token): the run's own iteration only drives it to its end.
      const options = {
        configurable: { thread_id: input.threadId },
        context: { workspace: input.workspace, journal, condition: input.condition, ...(input.paths !== undefined && { paths: input.paths }) },
        streamMode: ['custom'] as 'custom'[],
        // A run config key LangGraph passes to every node (`config.writer`), though its options type omits it.
        writer: (payload: unknown) => output.push(payload),
        signal: controller.signal,
        durability: 'exit' as const,
        recursionLimit: RECURSION_LIMIT,
      };
      const update = input.replacesAttempt ? await replaceAttempt(graph, input.threadId, human) : [human];
      const stream = graph._streamIterator({ messages: update }, options);
      run = (async () => {
        for await (const _ of stream as AsyncGenerator<unknown>) void _;
      })().finally(() => output.close());
      run.catch(() => undefined); // awaited below, or in `finally` when the consumer stops early
      for await (const payload of output) yield* collector.accept('custom', payload);
      await run;
      state = 'finished';
    } catch (error: unknown) {
      state = controller.signal.aborted ? 'aborted' : 'failed';
      failure = error;
    } finally {
      input.signal?.removeEventListener('abort', forwardAbort);
      if (state === 'running') {
        // The consumer stopped iterating: stop the run, let a tool call in flight land and the run
        // end (it writes the checkpoint it stopped at); the next turn settles the thread.
        controller.abort();
        await journal.settled();
        await run?.catch(() => undefined);
      }
    }

    if (state !== 'finished') {
      // LangGraph stops without waiting for the node in flight: let its tool
      // call land (no workspace write may outlive the turn) and report what
      // the stream missed.
      await journal.settled();
      if (state === 'aborted') for (const entry of journal.entries) yield* collector.accept('custom', entry);
      // An attempt that did not complete (it failed, or was stopped) is not context for later turns:
      // once the thread is settled, its question and everything after it leave the working context.
      // The transcript still shows them; a retry in place asks the question again.
      const settling = settleThread(graph, input.threadId, { human, collector, ran: journal.entries }).then(() =>
        forgetAttempt(graph, input.threadId, human),
      );
      if (state === 'failed') {
        await settling.catch(() => undefined);
        throw failure;
      }
      await settling;
    }
    const latest = state === 'finished' && isPrunableCheckpointer(saver) ? saver.lastWritten(input.threadId) : undefined;
    if (latest !== undefined) {
      if (finishedAt.size >= FINISHED_AT_LIMIT) finishedAt.clear();
      finishedAt.set(input.threadId, { checkpointId: latest, turnIndex: input.turnIndex });
    }
    return collector.result(state === 'aborted');
  }

  async function settleAbandonedTurn(input: {
    threadId: string;
    userMessageId: string;
    userMessage: string;
  }): Promise<{ content: string }> {
    finishedAt.delete(input.threadId);
    await settleThread(graph, input.threadId);
    const config = { configurable: { thread_id: input.threadId } };
    const snapshot = await graph.getState(config);
    const messages: BaseMessage[] = (snapshot.values as { messages?: BaseMessage[] }).messages ?? [];
    const asked = messages.findIndex((m) => m.id === input.userMessageId);
    let content = '';
    if (asked === -1) {
      await graph.updateState(config, { messages: [new HumanMessage({ id: input.userMessageId, content: input.userMessage })] }, CHAT_NODE);
    } else {
      content = messages
        .slice(asked + 1)
        .filter((m) => AIMessage.isInstance(m))
        .map((m) => m.text)
        .filter((t) => t.length > 0)
        .join('\n\n');
    }
    return { content };
  }

  return { runTurn, settleAbandonedTurn };
}

/**
 * The run input of a retry in place: the question again (it keeps its id, so it replaces itself where
 * it stands) and the removal of everything after it — the earlier attempt's reply, tool calls and
 * results. The thread is settled (idle) when this reads it.
 */
async function replaceAttempt(graph: AgentGraph, threadId: string, human: HumanMessage): Promise<BaseMessage[]> {
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  const messages: BaseMessage[] = (snapshot.values as { messages?: BaseMessage[] }).messages ?? [];
  const asked = messages.findIndex((m) => m.id === human.id);
  if (asked === -1) return [human];
  const after = messages.slice(asked + 1).flatMap((m) => (m.id === undefined ? [] : [new RemoveMessage({ id: m.id })]));
  return [human, ...after];
}

/** Removes the question `human` and everything after it from the thread's working context. */
async function forgetAttempt(graph: AgentGraph, threadId: string, human: HumanMessage): Promise<void> {
  const config = { configurable: { thread_id: threadId } };
  const snapshot = await graph.getState(config);
  const messages: BaseMessage[] = (snapshot.values as { messages?: BaseMessage[] }).messages ?? [];
  const asked = messages.findIndex((m) => m.id === human.id);
  if (asked === -1) return;
  const removals = messages.slice(asked).flatMap((m) => (m.id === undefined ? [] : [new RemoveMessage({ id: m.id })]));
  if (removals.length > 0) await graph.updateState(config, { messages: removals }, CHAT_NODE);
}

/**
 * Whether the checkpoint a run of this agent finished on is still the thread's latest, with no
 * writes pending: known without a query when this turn is numbered right after that run's (see
 * {@link RunTurnInput.turnIndex}), asked of the checkpointer otherwise.
 */
async function isUntouchedSince(
  saver: PrunableCheckpointer,
  input: RunTurnInput,
  finished: { checkpointId: string; turnIndex: number | undefined },
): Promise<boolean> {
  if (input.turnIndex !== undefined && finished.turnIndex !== undefined && input.turnIndex === finished.turnIndex + 1) {
    saver.vouchFor(input.threadId, finished.checkpointId);
    return true;
  }
  return saver.isLatestAndClean(input.threadId, finished.checkpointId);
}
