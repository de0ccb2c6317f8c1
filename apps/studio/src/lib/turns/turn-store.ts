// The running turns of the page, outside React: one run per thread (a turn on
// one thread keeps streaming while the user looks at another), each run an
// immutable snapshot so useSyncExternalStore re-renders only on change.
import type { FailureCode, PathRefInput, TurnEvent, TurnStatus } from '@trellis/domain';
import { isApiError } from '../api/http';

/** A tool call as the stream reports it: name, arguments, result, and whether it was refused. */
export type ToolActivity = Extract<TurnEvent, { event: 'tool' }>['data'];

/**
 * sending → streaming → done | stopped | failed. `turnIndex` is set once the
 * server has committed the user message (the `turn` event); a run that fails
 * before that was never recorded and can be retried as it was. A followed run
 * knows its turn from the start: the server already said it runs.
 */
export type TurnPhase = 'sending' | 'streaming' | 'done' | 'stopped' | 'failed';

export interface TurnFailure {
  code: string;
  message: string;
  /** HTTP status of a refused request (409: another turn is running); null for a stream error. */
  status: number | null;
  /** A provider failure's cause, when the model failed. */
  reasonCode?: FailureCode | undefined;
}

export interface TurnRun {
  runId: number;
  threadId: string;
  content: string;
  phase: TurnPhase;
  turnIndex: number | null;
  messageId: string | null;
  text: string;
  tools: ToolActivity[];
  error: TurnFailure | null;
  startedAt: string;
  /** The turn was started elsewhere (another tab, another device): this page follows its reply. */
  isFollowed: boolean;
  /** Stop was asked for: the server stops the reply and the run ends `stopped`. */
  isStopping: boolean;
  /** What the model call waits for (a silence, a rate limit, a retry), and since when; null while tokens flow. */
  status: TurnStatus | null;
  statusAt: number | null;
  /** 1, or the attempt a retry in place is making at its turn. */
  attempt: number;
}

/** `refs`: steps of other paths the message brings into the conversation (none: nothing of them reaches the model). */
export type TurnSource = (threadId: string, content: string, signal: AbortSignal, refs?: readonly PathRefInput[]) => AsyncIterable<TurnEvent>;

/** Follows turn `turn` of a thread from where its reply is (the text so far, then the rest). */
export type FollowSource = (threadId: string, turn: number, signal: AbortSignal) => AsyncIterable<TurnEvent>;

/** Asks the server to stop turn `turn` (wherever it runs); the reply then ends `interrupted`. */
export type StopRequest = (threadId: string, turn: number) => Promise<unknown>;
/** A retry in place: turn k's failed or stopped reply answered again on the same thread. */
export type RetrySource = (threadId: string, turn: number, signal: AbortSignal) => AsyncIterable<TurnEvent>;

/** A regenerate stream: `branch {thread_id}` first, then the new turn's events on that thread. */
export type RegenerateSource = (threadId: string, turn: number, signal: AbortSignal) => AsyncIterable<TurnEvent>;

export interface RegenerateRequest {
  /** The displayed thread whose step `turn` gets another reply. */
  threadId: string;
  turn: number;
  /** Step `turn`'s user message, which the new branch sends again (shown as the run's message). */
  content: string;
}

/** A regenerate either named its branch (the run then went on there) or was refused before it could. */
export type RegenerateOutcome = { isBranched: true; run: TurnRun } | { isBranched: false; error: TurnFailure };

/** Where a run's events come from: `send` always; each other kind of run only with its source. */
export interface TurnSources {
  send: TurnSource;
  regenerate?: RegenerateSource | undefined;
  retry?: RetrySource | undefined;
  follow?: FollowSource | undefined;
  /** Without it, Stop only closes the stream. */
  stop?: StopRequest | undefined;
}

export interface TurnHooks {
  /** After each tool result: the live workspace changed. */
  onTool?: (run: TurnRun) => void;
  /** After the turn's first event: the thread has a new turn. */
  onCommitted?: (run: TurnRun) => void;
  /** Once, when the run reaches a final phase. */
  onEnd?: (run: TurnRun) => void;
}

/**
 * A followed reply the page already shows part of (rendered on the server): its text and tool calls
 * so far, and when its question was sent.
 */
export interface FollowedSoFar {
  text: string;
  tools: ToolActivity[];
  startedAt: string;
}

/**
 * A followed turn's stream replays its reply from the start (the text so far, then the rest): what
 * the page already shows is dropped from it, so the run goes on from there instead of repeating it.
 */
export async function* afterSoFar(events: AsyncIterable<TurnEvent>, soFar: FollowedSoFar): AsyncIterable<TurnEvent> {
  let text = soFar.text.length;
  let tools = soFar.tools.length;
  for await (const event of events) {
    if (event.event === 'token' && text > 0) {
      const rest = event.data.text.slice(text);
      text = Math.max(0, text - event.data.text.length);
      if (rest !== '') yield { event: 'token', data: { ...event.data, text: rest } };
      continue;
    }
    if (event.event === 'tool' && tools > 0) {
      tools -= 1;
      continue;
    }
    yield event;
  }
}

/**
 * A run as it starts: the page's own send (no turn yet), or a followed turn, from the reply so far
 * when the page already shows part of it. The turn store starts every run here, and a page rendered
 * on the server shows the followed run it will have from the same fields.
 */
export function runOf(start: {
  runId: number;
  threadId: string;
  content: string;
  turnIndex: number | null;
  isFollowed: boolean;
  attempt: number;
  soFar?: FollowedSoFar | undefined;
  phase?: TurnPhase;
}): TurnRun {
  const { soFar } = start;
  return {
    runId: start.runId,
    threadId: start.threadId,
    content: start.content,
    phase: start.phase ?? 'sending',
    turnIndex: start.turnIndex,
    messageId: null,
    text: soFar?.text ?? '',
    tools: soFar?.tools ?? [],
    error: null,
    startedAt: soFar?.startedAt ?? new Date().toISOString(),
    isFollowed: start.isFollowed,
    isStopping: false,
    status: null,
    statusAt: null,
    attempt: start.attempt,
  };
}

export function isRunActive(run: TurnRun | undefined): boolean {
  return run !== undefined && (run.phase === 'sending' || run.phase === 'streaming');
}

export class TurnStore {
  private readonly runs = new Map<string, TurnRun>();
  private readonly controllers = new Map<number, AbortController>();
  private readonly listeners = new Set<() => void>();
  private nextRunId = 1;
  private active: ReadonlySet<string> = new Set();

  constructor(
    private readonly sources: TurnSources,
    private readonly hooks: TurnHooks = {},
  ) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get(threadId: string): TurnRun | undefined {
    return this.runs.get(threadId);
  }

  isActive(threadId: string): boolean {
    return isRunActive(this.runs.get(threadId));
  }

  /** The threads with a running turn; a new set only when membership changes. */
  getActiveThreads = (): ReadonlySet<string> => this.active;

  /** Runs one turn to its end; never rejects (failures become the run's phase). */
  start(threadId: string, content: string, refs: readonly PathRefInput[] = []): Promise<TurnRun> {
    return this.launch(threadId, content, (signal) => this.sources.send(threadId, content, signal, refs));
  }

  /**
   * Shows a turn this page did not start (another tab's, or one still running when the page opened):
   * its reply streams in from where it is. Never replaces a run of this page that is still active.
   */
  async follow(threadId: string, turn: number, content: string, attempt = 1, soFar?: FollowedSoFar): Promise<TurnRun | undefined> {
    const existing = this.runs.get(threadId);
    const follow = this.sources.follow;
    // A run of this turn already shown (its attempt or a later one) is not followed again; a retry's
    // next attempt of the same turn is.
    if (!follow || (existing && (isRunActive(existing) || (existing.turnIndex === turn && existing.attempt >= attempt)))) return undefined;
    const controller = new AbortController();
    let isHeard = false;
    const replayed = follow(threadId, turn, controller.signal);
    const source = soFar ? afterSoFar(replayed, soFar) : replayed;
    const heard: AsyncIterable<TurnEvent> = {
      async *[Symbol.asyncIterator]() {
        for await (const event of source) {
          isHeard = true;
          yield event;
        }
      },
    };
    // The turn is known before its stream answers: from the first render the run stands for it (the
    // map and the step say "replying…", its stored question is not shown twice, Stop asks the server).
    const run = await this.drive(threadId, content, heard, controller, { isFollowed: true, attempt, turnIndex: turn, soFar });
    // Refused before its first event (the turn is gone): nothing to show; the transcript has the rest.
    if (run.phase === 'failed' && !isHeard) this.dismiss(threadId, run.runId);
    return run;
  }

  /**
   * Retries turn `turn` in place (its reply failed or stopped): the run shows `content` (the turn's
   * question) and streams the next attempt; never rejects.
   */
  async retry(threadId: string, turn: number, content: string): Promise<TurnRun> {
    const retry = this.sources.retry;
    if (!retry) throw new Error('This TurnStore was built without a retry source');
    return this.launch(threadId, content, (signal) => retry(threadId, turn, signal));
  }

  /** A run of this page on `threadId`, unless one is already active there (that one is returned). */
  private async launch(threadId: string, content: string, open: (signal: AbortSignal) => AsyncIterable<TurnEvent>): Promise<TurnRun> {
    const existing = this.runs.get(threadId);
    if (existing && isRunActive(existing)) return existing;
    const controller = new AbortController();
    return this.drive(threadId, content, open(controller.signal), controller);
  }

  /**
   * Regenerates a step. Nothing is shown until the stream names its branch: then `onBranch` gets the
   * new thread (the caller switches the view to it) and the run goes on there like any other turn.
   * A refusal before that (or a stream that names no branch) is returned, never thrown.
   */
  async regenerate(request: RegenerateRequest, onBranch: (threadId: string) => void): Promise<RegenerateOutcome> {
    if (!this.sources.regenerate) throw new Error('This TurnStore was built without a regenerate source');
    const controller = new AbortController();
    const events = this.sources.regenerate(request.threadId, request.turn, controller.signal)[Symbol.asyncIterator]();
    let first: IteratorResult<TurnEvent>;
    try {
      first = await events.next();
    } catch (error) {
      return { isBranched: false, error: failureOf(error) };
    }
    if (first.done || first.value.event !== 'branch') {
      controller.abort();
      await events.return?.().catch(() => undefined);
      const error =
        !first.done && first.value.event === 'error'
          ? { code: first.value.data.code, message: first.value.data.message, status: null }
          : { code: 'bad_response', message: 'The server did not open a new branch.', status: null };
      return { isBranched: false, error };
    }
    const threadId = first.value.data.thread_id;
    const rest: AsyncIterable<TurnEvent> = { [Symbol.asyncIterator]: () => events };
    const run = this.drive(threadId, request.content, rest, controller);
    onBranch(threadId);
    return { isBranched: true, run: await run };
  }

  private async drive(
    threadId: string,
    content: string,
    events: AsyncIterable<TurnEvent>,
    controller: AbortController,
    {
      isFollowed = false,
      attempt = 1,
      turnIndex = null,
      soFar,
    }: { isFollowed?: boolean; attempt?: number; turnIndex?: number | null; soFar?: FollowedSoFar | undefined } = {},
  ): Promise<TurnRun> {
    const runId = this.nextRunId++;
    this.controllers.set(runId, controller);
    const initial = runOf({ runId, threadId, content, turnIndex, isFollowed, attempt, soFar });
    this.set(initial);
    try {
      for await (const event of events) {
        this.apply(threadId, runId, event);
        if (!isRunActive(this.current(threadId, runId))) break;
      }
      const run = this.current(threadId, runId);
      if (run && isRunActive(run)) {
        this.update(threadId, runId, {
          phase: 'failed',
          error: { code: 'stream_ended', message: 'The reply stopped unexpectedly.', status: null },
        });
      }
    } catch (error) {
      if (controller.signal.aborted) this.update(threadId, runId, { phase: 'stopped' });
      else this.update(threadId, runId, { phase: 'failed', error: failureOf(error) });
    } finally {
      this.controllers.delete(runId);
    }
    // Runs are only replaced or dismissed once final, so this is the run's end state.
    const final = this.current(threadId, runId) ?? initial;
    this.hooks.onEnd?.(final);
    return final;
  }

  /**
   * Stop: the server owns the turn, so closing the stream would not stop it. Once the turn is
   * committed the server is asked to stop it and the stream is read to its end (the reply keeps what
   * it produced); before that, the request itself is aborted.
   */
  stop(threadId: string): void {
    const run = this.runs.get(threadId);
    if (!run || !isRunActive(run)) return;
    const stop = this.sources.stop;
    if (run.turnIndex === null || !stop) {
      this.controllers.get(run.runId)?.abort();
      return;
    }
    if (run.isStopping) return;
    this.update(threadId, run.runId, { isStopping: true });
    stop(threadId, run.turnIndex).catch(() => this.controllers.get(run.runId)?.abort());
  }

  /** Forgets a finished run (after the transcript has caught up, or when the user dismisses a notice). */
  dismiss(threadId: string, runId?: number): void {
    const run = this.runs.get(threadId);
    if (!run || isRunActive(run) || (runId !== undefined && run.runId !== runId)) return;
    this.runs.delete(threadId);
    this.emit();
  }

  private apply(threadId: string, runId: number, event: TurnEvent): void {
    switch (event.event) {
      case 'turn': {
        const run = this.update(threadId, runId, {
          phase: 'streaming',
          turnIndex: event.data.turn_index,
          attempt: event.data.attempt ?? this.current(threadId, runId)?.attempt ?? 1,
        });
        if (run) this.hooks.onCommitted?.(run);
        return;
      }
      case 'token': {
        const run = this.current(threadId, runId);
        if (run) this.update(threadId, runId, { text: run.text + event.data.text, status: null, statusAt: null });
        return;
      }
      case 'status':
        this.update(threadId, runId, { status: event.data, statusAt: Date.now() });
        return;
      case 'tool': {
        const before = this.current(threadId, runId);
        if (!before) return;
        const run = this.update(threadId, runId, { tools: [...before.tools, event.data], status: null, statusAt: null });
        if (run) this.hooks.onTool?.(run);
        return;
      }
      case 'done':
        // A reply the server cut (its drain) is stored `interrupted`: shown like a stopped one.
        this.update(threadId, runId, {
          phase: event.data.status === 'interrupted' || this.current(threadId, runId)?.isStopping ? 'stopped' : 'done',
          turnIndex: event.data.turn_index,
          messageId: event.data.message_id,
        });
        return;
      case 'error':
        this.update(threadId, runId, {
          phase: 'failed',
          status: null,
          error: { code: event.data.code, message: event.data.message, status: null, reasonCode: event.data.reason_code },
        });
        return;
      case 'branch':
        // Only a regenerate stream opens with it, and `regenerate` reads it before the run starts.
        return;
    }
  }

  private current(threadId: string, runId: number): TurnRun | undefined {
    const run = this.runs.get(threadId);
    return run?.runId === runId ? run : undefined;
  }

  private update(threadId: string, runId: number, patch: Partial<TurnRun>): TurnRun | undefined {
    const run = this.current(threadId, runId);
    if (!run) return undefined;
    const next = { ...run, ...patch };
    this.set(next);
    return next;
  }

  private set(run: TurnRun): void {
    this.runs.set(run.threadId, run);
    this.emit();
  }

  private emit(): void {
    const active = [...this.runs.values()].filter(isRunActive).map((r) => r.threadId);
    if (active.length !== this.active.size || active.some((id) => !this.active.has(id)))
      this.active = new Set(active);
    for (const listener of this.listeners) listener();
  }
}

function failureOf(error: unknown): TurnFailure {
  if (isApiError(error)) return { code: error.code, message: error.message, status: error.status };
  return { code: 'network', message: 'The connection was lost while the reply was streaming.', status: null };
}
