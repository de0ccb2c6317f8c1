import { describe, expect, it, vi } from 'vitest';
import type { TurnEvent } from '@trellis/domain';
import { ApiError } from '../api/http';
import { TurnStore, type RegenerateSource, type TurnSource } from './turn-store';

function scripted(events: TurnEvent[], options: { hangAfter?: number } = {}): TurnSource {
  return async function* (_thread, _content, signal) {
    for (const [i, event] of events.entries()) {
      if (options.hangAfter !== undefined && i === options.hangAfter) {
        await new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      }
      yield event;
    }
  };
}

describe('TurnStore', () => {
  it('accumulates tokens and tools, reports each tool, and ends done', async () => {
    const onTool = vi.fn();
    const onEnd = vi.fn();
    const store = new TurnStore(
      {
        send: scripted([
          { event: 'turn', data: { turn_index: 3, thread_id: 't' } },
          { event: 'tool', data: { name: 'add_todo', args: { text: 'a' }, result: 'added', is_error: false } },
          { event: 'token', data: { text: 'Do' } },
          { event: 'token', data: { text: 'ne.' } },
          { event: 'done', data: { turn_index: 3, message_id: 'm1', status: 'complete', reason: null } },
        ]),
      },
      { onTool, onEnd },
    );
    const run = await store.start('t', 'todo: a');
    expect(run).toMatchObject({ phase: 'done', turnIndex: 3, messageId: 'm1', text: 'Done.' });
    expect(run.tools.map((t) => t.name)).toEqual(['add_todo']);
    expect(onTool).toHaveBeenCalledTimes(1);
    expect(onEnd).toHaveBeenCalledWith(run);
  });

  it('ends a reply the server cut (done with status interrupted) as stopped, not done', async () => {
    const store = new TurnStore({
      send: scripted([
        { event: 'turn', data: { turn_index: 2, thread_id: 't' } },
        { event: 'token', data: { text: 'Half' } },
        { event: 'done', data: { turn_index: 2, message_id: 'm2', status: 'interrupted', reason: 'the server stopped during this reply' } },
      ]),
    });
    const run = await store.start('t', 'hello');
    expect(run).toMatchObject({ phase: 'stopped', turnIndex: 2, messageId: 'm2', text: 'Half' });
  });

  it('shows what the model waits for until the next token, and retries a turn in place as its next attempt', async () => {
    const seen: (string | null)[] = [];
    const retrySource = (_thread: string, turn: number) =>
      scripted([
        { event: 'turn', data: { turn_index: turn, thread_id: 't', attempt: 2 } },
        { event: 'status', data: { state: 'rate_limited', retry_in_s: 2, retry: 1, reason: '429' } },
        { event: 'token', data: { text: 'Hi.' } },
        { event: 'done', data: { turn_index: turn, message_id: 'm2', status: 'complete', reason: null } },
      ])('t', '', new AbortController().signal);
    const store = new TurnStore({ send: scripted([]), retry: retrySource });
    store.subscribe(() => seen.push(store.get('t')?.status?.state ?? null));
    const run = await store.retry('t', 4, 'the question');
    expect(run).toMatchObject({ phase: 'done', turnIndex: 4, attempt: 2, content: 'the question', text: 'Hi.', status: null });
    expect(seen).toContain('rate_limited');
    expect(seen.at(-1)).toBeNull();
  });

  it('keeps a provider failure’s code on the failed run', async () => {
    const store = new TurnStore({
      send: scripted([
        { event: 'turn', data: { turn_index: 1, thread_id: 't' } },
        { event: 'error', data: { code: 'upstream_failed', message: 'This reply failed: 401', reason_code: 'auth' } },
      ]),
    });
    const run = await store.start('t', 'hello');
    expect(run.error).toEqual({ code: 'upstream_failed', message: 'This reply failed: 401', status: null, reasonCode: 'auth' });
  });

  it('turns a 409 refusal into a failed run that was never committed', async () => {
    const store = new TurnStore({
      send: async function* () {
        yield* [];
        throw new ApiError(409, 'turn_in_progress', 'busy');
      },
    });
    const run = await store.start('t', 'hello');
    expect(run).toMatchObject({
      phase: 'failed',
      turnIndex: null,
      error: { status: 409, code: 'turn_in_progress' },
    });
  });

  it('stop aborts the stream and keeps what arrived', async () => {
    const store = new TurnStore({
      send: scripted(
        [
          { event: 'turn', data: { turn_index: 1, thread_id: 't' } },
          { event: 'token', data: { text: 'partial' } },
          { event: 'done', data: { turn_index: 1, message_id: 'm', status: 'complete', reason: null } },
        ],
        { hangAfter: 2 },
      ),
    });
    const running = store.start('t', 'x');
    await vi.waitFor(() => expect(store.get('t')?.text).toBe('partial'));
    expect(store.isActive('t')).toBe(true);
    store.stop('t');
    const run = await running;
    expect(run).toMatchObject({ phase: 'stopped', text: 'partial', turnIndex: 1 });
  });

  it('stop asks the server once the turn is committed, reads the stream to its end and ends stopped', async () => {
    let release: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (release = resolve));
    const stopRequest = vi.fn(async () => release());
    const store = new TurnStore({
      send: async function* () {
        yield { event: 'turn', data: { turn_index: 4, thread_id: 't' } } satisfies TurnEvent;
        yield { event: 'token', data: { text: 'partial' } } satisfies TurnEvent;
        await stopped; // the server stops the model, then stores the reply and says done
        yield { event: 'token', data: { text: '!' } } satisfies TurnEvent;
        yield { event: 'done', data: { turn_index: 4, message_id: 'm', status: 'interrupted', reason: 'you stopped this reply' } } satisfies TurnEvent;
      },
      stop: stopRequest,
    });
    const running = store.start('t', 'x');
    await vi.waitFor(() => expect(store.get('t')?.text).toBe('partial'));
    store.stop('t');
    store.stop('t');
    expect(stopRequest).toHaveBeenCalledTimes(1);
    expect(stopRequest).toHaveBeenCalledWith('t', 4);
    expect(await running).toMatchObject({ phase: 'stopped', text: 'partial!', messageId: 'm', isStopping: true });
  });

  it('follows a turn started elsewhere, unless a run of this page is active on the thread', async () => {
    const follow = vi.fn(async function* (_thread: string, turn: number) {
      yield { event: 'turn', data: { turn_index: turn, thread_id: 't' } } satisfies TurnEvent;
      yield { event: 'token', data: { text: 'so far, and the rest' } } satisfies TurnEvent;
      yield { event: 'done', data: { turn_index: turn, message_id: 'm', status: 'complete', reason: null } } satisfies TurnEvent;
    });
    const store = new TurnStore({ send: scripted([], { hangAfter: 0 }), follow });
    const run = await store.follow('t', 2, 'question');
    expect(run).toMatchObject({ phase: 'done', isFollowed: true, turnIndex: 2, text: 'so far, and the rest', content: 'question' });
    // the same turn is not followed twice while its run is still on the page
    expect(await store.follow('t', 2, 'question')).toBeUndefined();
    void store.start('u', 'mine');
    expect(await store.follow('u', 1, 'other')).toBeUndefined();
    expect(follow).toHaveBeenCalledTimes(1);
  });

  it("goes on from the reply the page's HTML already shows: its stream's replay of that text and those tools is not shown twice", async () => {
    const add = { name: 'add_todo', args: { text: 'a' }, result: 'added', is_error: false };
    const plan = { name: 'write_document', args: { text: '# Plan' }, result: 'written', is_error: false };
    // The stream replays the reply from its start (as the server's follow does), in pieces that do
    // not fall where the page's copy ends.
    const follow = async function* (_thread: string, turn: number): AsyncGenerator<TurnEvent> {
      yield { event: 'turn', data: { turn_index: turn, thread_id: 't' } };
      yield { event: 'tool', data: add };
      yield { event: 'token', data: { text: 'Hel' } };
      yield { event: 'token', data: { text: 'lo wor' } };
      yield { event: 'tool', data: plan };
      yield { event: 'token', data: { text: 'ld!' } };
      yield { event: 'done', data: { turn_index: turn, message_id: 'm', status: 'complete', reason: null } };
    };
    const store = new TurnStore({ send: scripted([]), follow });
    const seen: string[] = [];
    store.subscribe(() => {
      const run = store.get('t');
      if (run) seen.push(run.text);
    });
    const soFar = { text: 'Hello w', tools: [add], startedAt: '2026-12-07T08:00:00.000Z' };
    const run = await store.follow('t', 2, 'question', 1, soFar);
    expect(run).toMatchObject({ phase: 'done', text: 'Hello world!', startedAt: soFar.startedAt, isFollowed: true });
    expect(run?.tools).toEqual([add, plan]);
    // From its first state on, the run never shows less than the page did, nor any text twice.
    expect(seen[0]).toBe('Hello w');
    expect(seen.every((text) => 'Hello world!'.startsWith(text) && text.length >= soFar.text.length)).toBe(true);
  });

  it('follows a retry of a turn whose earlier attempt it already showed (the next attempt runs)', async () => {
    const follow = vi.fn(async function* (_thread: string, turn: number) {
      yield { event: 'turn', data: { turn_index: turn, thread_id: 't' } } satisfies TurnEvent;
      yield { event: 'done', data: { turn_index: turn, message_id: 'm', status: 'complete', reason: null } } satisfies TurnEvent;
    });
    const store = new TurnStore({ send: scripted([]), follow });
    await store.follow('t', 2, 'question');
    expect(await store.follow('t', 2, 'question', 2)).toMatchObject({ phase: 'done', attempt: 2, turnIndex: 2 });
    expect(await store.follow('t', 2, 'question', 2)).toBeUndefined();
    expect(follow).toHaveBeenCalledTimes(2);
  });

  it('a followed run stands for its turn before its stream answers: Stop asks the server to stop that turn', async () => {
    let release: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (release = resolve));
    const follow = async function* (_thread: string, turn: number) {
      await answered;
      yield { event: 'turn', data: { turn_index: turn, thread_id: 't' } } satisfies TurnEvent;
      yield { event: 'done', data: { turn_index: turn, message_id: 'm', status: 'interrupted', reason: 'you stopped this reply' } } satisfies TurnEvent;
    };
    const stop = vi.fn(async () => undefined);
    const store = new TurnStore({ send: scripted([]), follow, stop });
    const following = store.follow('t', 4, 'question');
    expect(store.get('t')).toMatchObject({ phase: 'sending', turnIndex: 4, isFollowed: true, content: 'question' });
    store.stop('t');
    expect(stop).toHaveBeenCalledWith('t', 4);
    release();
    expect(await following).toMatchObject({ phase: 'stopped', turnIndex: 4, messageId: 'm' });
  });

  it('a follow refused before its first event leaves nothing on the page', async () => {
    const store = new TurnStore({
      send: scripted([]),
      follow: async function* () {
        yield* [];
        throw new ApiError(404, 'not_found', 'Turn 3 not found');
      },
    });
    await store.follow('t', 3, 'q');
    expect(store.get('t')).toBeUndefined();
  });

  it('a stream that ends without done is a failure, and dismiss forgets only the named run', async () => {
    const store = new TurnStore({ send: scripted([{ event: 'turn', data: { turn_index: 1, thread_id: 't' } }]) });
    const run = await store.start('t', 'x');
    expect(run.phase).toBe('failed');
    store.dismiss('t', run.runId + 1);
    expect(store.get('t')).toBeDefined();
    store.dismiss('t', run.runId);
    expect(store.get('t')).toBeUndefined();
  });

  describe('regenerate', () => {
    const noSend: TurnSource = async function* () {
      yield* [];
      throw new Error('a regenerate must not send');
    };
    function regenerating(events: TurnEvent[], options: { hangAfter?: number } = {}): RegenerateSource {
      const source = scripted(events, options);
      return (threadId, _turn, signal) => source(threadId, '', signal);
    }

    it('runs on the branch the stream names, which the caller learns before the reply arrives', async () => {
      const store = new TurnStore({
        send: noSend,
        regenerate: regenerating(
          [
            { event: 'branch', data: { thread_id: 'b' } },
            { event: 'turn', data: { turn_index: 2, thread_id: 'b' } },
            { event: 'token', data: { text: 'again' } },
            { event: 'done', data: { turn_index: 2, message_id: 'm2', status: 'complete', reason: null } },
          ],
          { hangAfter: 2 },
        ),
      });
      const seen: { branch: string; run: unknown; onSource: unknown }[] = [];
      const outcome = store.regenerate({ threadId: 'a', turn: 2, content: 'question' }, (branch) =>
        seen.push({ branch, run: store.get(branch), onSource: store.get('a') }),
      );
      await vi.waitFor(() => expect(store.get('b')?.turnIndex).toBe(2));
      expect(seen).toEqual([
        { branch: 'b', run: expect.objectContaining({ threadId: 'b', content: 'question', phase: 'sending' }), onSource: undefined },
      ]);
      expect(store.isActive('b')).toBe(true);
      expect(store.isActive('a')).toBe(false);
      store.stop('b');
      expect(await outcome).toMatchObject({ isBranched: true, run: { threadId: 'b', phase: 'stopped', turnIndex: 2 } });
    });

    it('ends done on the branch and reports the end like any turn', async () => {
      const onEnd = vi.fn();
      const store = new TurnStore(
        {
          send: noSend,
          regenerate: regenerating([
            { event: 'branch', data: { thread_id: 'b' } },
            { event: 'turn', data: { turn_index: 1, thread_id: 'b' } },
            { event: 'token', data: { text: 'Fresh.' } },
            { event: 'done', data: { turn_index: 1, message_id: 'm', status: 'complete', reason: null } },
          ]),
        },
        { onEnd },
      );
      const outcome = await store.regenerate({ threadId: 'a', turn: 1, content: 'q' }, () => undefined);
      expect(outcome).toMatchObject({ isBranched: true, run: { threadId: 'b', phase: 'done', text: 'Fresh.' } });
      expect(onEnd).toHaveBeenCalledWith(expect.objectContaining({ threadId: 'b', phase: 'done' }));
    });

    it('returns a refusal before the branch without showing a run anywhere', async () => {
      const onBranch = vi.fn();
      const store = new TurnStore({
        send: noSend,
        regenerate: async function* () {
          yield* [];
          throw new ApiError(404, 'not_found', 'Turn 9 was not found');
        },
      });
      const outcome = await store.regenerate({ threadId: 'a', turn: 9, content: 'q' }, onBranch);
      expect(outcome).toEqual({
        isBranched: false,
        error: { code: 'not_found', message: 'Turn 9 was not found', status: 404 },
      });
      expect(onBranch).not.toHaveBeenCalled();
      expect(store.get('a')).toBeUndefined();
      expect(store.getActiveThreads().size).toBe(0);
    });

    it('a stream that does not open with a branch is a failure, not a run on the source thread', async () => {
      const onBranch = vi.fn();
      const store = new TurnStore({ send: noSend, regenerate: regenerating([{ event: 'turn', data: { turn_index: 1, thread_id: 'a' } }]) });
      const outcome = await store.regenerate({ threadId: 'a', turn: 1, content: 'q' }, onBranch);
      expect(outcome).toMatchObject({ isBranched: false, error: { code: 'bad_response' } });
      expect(onBranch).not.toHaveBeenCalled();
      expect(store.get('a')).toBeUndefined();
    });
  });
});
