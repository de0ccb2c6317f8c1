// A deterministic chat model with no network: the default provider, so the
// studio works without a key and every test is reproducible. Its behaviour is
// planned by offline-directives.ts; this class only speaks LangChain: tool
// binding, token streaming through callbacks, abort, and a record of every
// input it received (tests assert that only the active path reached it).
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import { AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { planOfflineReply, splitIntoChunks, type PlannedToolCall } from './offline-directives';

export interface OfflineChatModelOptions extends BaseChatModelParams {
  /** Pause before each streamed chunk, in ms (default 0). Gives a UI something to watch. */
  chunkDelayMs?: number;
  /**
   * How many calls' inputs `received` keeps, the most recent (default: every call, a test's
   * record). The studio keeps none: each input holds a system prompt with the whole document.
   */
  keepInputs?: number;
}

export interface OfflineChatModelCallOptions extends BaseChatModelCallOptions {
  tools?: BindToolsInput[];
}

export class OfflineChatModel extends BaseChatModel<OfflineChatModelCallOptions, AIMessageChunk> {
  /** Every call's full input (system prompt included), in call order — the last `keepInputs` calls. */
  readonly received: BaseMessage[][] = [];
  readonly chunkDelayMs: number;
  readonly keepInputs: number;

  constructor(options: OfflineChatModelOptions = {}) {
    const { chunkDelayMs = 0, keepInputs = Number.POSITIVE_INFINITY, ...rest } = options;
    super(rest);
    this.chunkDelayMs = chunkDelayMs;
    this.keepInputs = keepInputs;
  }

  static override lc_name(): string {
    return 'OfflineChatModel';
  }

  override _llmType(): string {
    return 'trellis-offline';
  }

  /** Binds on this very instance, so `received` sees the bound model's calls too. */
  override bindTools(tools: BindToolsInput[], kwargs?: Partial<OfflineChatModelCallOptions>) {
    return this.withConfig({ ...kwargs, tools });
  }

  override async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    let merged: ChatGenerationChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) {
      merged = merged === undefined ? chunk : merged.concat(chunk);
    }
    const message = merged?.message ?? new AIMessageChunk({ content: '' });
    return { generations: [{ text: merged?.text ?? '', message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    if (this.keepInputs > 0) this.received.push([...messages]);
    if (this.received.length > this.keepInputs) this.received.splice(0, this.received.length - this.keepInputs);
    const reply = planOfflineReply(messages, boundToolNames(options.tools));

    for (const piece of splitIntoChunks(reply.text)) {
      await this.pause(options.signal);
      const chunk = new ChatGenerationChunk({ message: new AIMessageChunk({ content: piece }), text: piece });
      yield chunk;
      await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
    }
    if (reply.toolCalls.length > 0) {
      options.signal?.throwIfAborted();
      yield new ChatGenerationChunk({
        message: new AIMessageChunk({ content: '', tool_call_chunks: toolCallChunks(reply.toolCalls, messages) }),
        text: '',
      });
    }
  }

  private async pause(signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    if (this.chunkDelayMs <= 0) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, this.chunkDelayMs);
      signal?.addEventListener('abort', done, { once: true });
    });
    signal?.throwIfAborted();
  }
}

/** Tool call ids derived from the input, so the same input gives the same ids. */
function toolCallChunks(calls: PlannedToolCall[], input: BaseMessage[]) {
  const seed = fnv1a(`${input.length}\u0000${input.at(-1)?.text ?? ''}\u0000${JSON.stringify(calls)}`);
  return calls.map((call, index) => ({
    type: 'tool_call_chunk' as const,
    index,
    id: `call_${seed}_${index}`,
    name: call.name,
    args: JSON.stringify(call.args),
  }));
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

function boundToolNames(tools: BindToolsInput[] | undefined): Set<string> {
  const names = new Set<string>();
  for (const tool of tools ?? []) {
    const name = toolName(tool);
    if (name !== undefined) names.add(name);
  }
  return names;
}

function toolName(tool: unknown): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  if ('name' in tool && typeof tool.name === 'string') return tool.name;
  if ('function' in tool && typeof tool.function === 'object' && tool.function !== null && 'name' in tool.function) {
    return typeof tool.function.name === 'string' ? tool.function.name : undefined;
  }
  return undefined;
}
