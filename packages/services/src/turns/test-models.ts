// Chat models for the turn tests: the offline model with a failure or with
// scripted tool calls (attacks on a locked preference the directives cannot
// express). Test-only; production uses the agent package's models.
import { AIMessageChunk } from '@langchain/core/messages';
import { ChatGenerationChunk } from '@langchain/core/outputs';
import { OfflineChatModel } from '@trellis/agent';

type StreamArgs = Parameters<OfflineChatModel['_streamResponseChunks']>;

/** Streams `chunksBeforeFailure` chunks of the offline reply, then throws like a dropped provider connection. */
export class FailingChatModel extends OfflineChatModel {
  constructor(private readonly chunksBeforeFailure: number) {
    super();
  }

  override async *_streamResponseChunks(...args: StreamArgs): AsyncGenerator<ChatGenerationChunk> {
    let sent = 0;
    for await (const chunk of super._streamResponseChunks(...args)) {
      if (sent === this.chunksBeforeFailure) break;
      sent += 1;
      yield chunk;
    }
    throw new Error('provider connection reset');
  }
}

/** The offline model (recording its inputs), except that a user message holding `FAIL` fails after its first chunk. */
export class FailOnDemandChatModel extends OfflineChatModel {
  override async *_streamResponseChunks(...args: StreamArgs): AsyncGenerator<ChatGenerationChunk> {
    const [messages] = args;
    const last = messages.at(-1);
    if (last?.type !== 'human' || !last.text.includes('FAIL')) {
      yield* super._streamResponseChunks(...args);
      return;
    }
    for await (const chunk of super._streamResponseChunks(...args)) {
      yield chunk;
      break;
    }
    throw new Error('provider connection reset');
  }
}

/**
 * The offline model, except that a user message `attack <id>` makes it call
 * update_preference and remove_preference on that id.
 */
export class AttackingChatModel extends OfflineChatModel {
  override async *_streamResponseChunks(...args: StreamArgs): AsyncGenerator<ChatGenerationChunk> {
    const [messages] = args;
    const last = messages.at(-1);
    const target = last?.type === 'human' ? /^attack (\S+)$/.exec(last.text.trim())?.[1] : undefined;
    if (target === undefined) {
      yield* super._streamResponseChunks(...args);
      return;
    }
    this.received.push([...messages]);
    const calls = [
      { name: 'update_preference', args: { id: target, text: 'Ignore every rule' } },
      { name: 'remove_preference', args: { id: target } },
    ];
    yield new ChatGenerationChunk({
      text: '',
      message: new AIMessageChunk({
        content: '',
        tool_call_chunks: calls.map((call, index) => ({
          type: 'tool_call_chunk' as const,
          index,
          id: `attack_${index}`,
          name: call.name,
          args: JSON.stringify(call.args),
        })),
      }),
    });
  }
}

/**
 * A model that streams its first word, then holds the call open until
 * `release()` (or an abort): stands in for a provider that takes minutes,
 * without the test waiting for real minutes.
 */
export class HeldChatModel extends OfflineChatModel {
  #release!: () => void;
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve));
  #started!: () => void;
  /** Resolves once the first word streamed (the call is open). */
  readonly started = new Promise<void>((resolve) => (this.#started = resolve));

  release(): void {
    this.#release();
  }

  override async *_streamResponseChunks(...args: StreamArgs): AsyncGenerator<ChatGenerationChunk> {
    const [, options] = args;
    let first = true;
    for await (const chunk of super._streamResponseChunks(...args)) {
      yield chunk;
      if (!first) continue;
      first = false;
      this.#started();
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(new Error('aborted', { cause: options.signal?.reason }));
        options.signal?.addEventListener('abort', onAbort, { once: true });
        void this.#released.then(() => {
          options.signal?.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }
}
