// A chat model for tests that answers from a script, one step per call, so a
// test can make the model call any tool (e.g. try to change a locked
// preference) — which the offline model's directives never do.
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { ChatGenerationChunk, type ChatResult } from '@langchain/core/outputs';
import { splitIntoChunks } from '../models/offline-directives';

export interface ScriptStep {
  text?: string;
  toolCalls?: { name: string; args: Record<string, unknown> }[];
}

export class ScriptedChatModel extends BaseChatModel {
  readonly received: BaseMessage[][] = [];
  private readonly steps: ScriptStep[];
  private readonly chunkDelayMs: number;

  constructor(steps: ScriptStep[], options: { chunkDelayMs?: number } = {}) {
    super({});
    this.steps = [...steps];
    this.chunkDelayMs = options.chunkDelayMs ?? 0;
  }

  override _llmType(): string {
    return 'scripted';
  }

  override bindTools(_tools: BindToolsInput[]) {
    return this.withConfig({});
  }

  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    let merged: ChatGenerationChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options)) merged = merged === undefined ? chunk : merged.concat(chunk);
    return { generations: [{ text: merged?.text ?? '', message: merged?.message ?? new AIMessageChunk('') }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    this.received.push([...messages]);
    const step = this.steps.shift() ?? { text: '(script exhausted)' };
    for (const piece of splitIntoChunks(step.text ?? '')) {
      if (this.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.chunkDelayMs));
      options.signal?.throwIfAborted();
      const chunk = new ChatGenerationChunk({ message: new AIMessageChunk({ content: piece }), text: piece });
      yield chunk;
      await runManager?.handleLLMNewToken(piece, undefined, undefined, undefined, undefined, { chunk });
    }
    const calls = step.toolCalls ?? [];
    if (calls.length > 0) {
      yield new ChatGenerationChunk({
        message: new AIMessageChunk({
          content: '',
          tool_call_chunks: calls.map((c, index) => ({
            type: 'tool_call_chunk' as const,
            index,
            id: `scripted_${this.received.length}_${index}`,
            name: c.name,
            args: JSON.stringify(c.args),
          })),
        }),
        text: '',
      });
    }
  }
}
