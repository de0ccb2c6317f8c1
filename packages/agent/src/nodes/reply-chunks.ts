import { AIMessageChunk } from '@langchain/core/messages';

/**
 * The reply a model streams, gathered without merging every chunk into the last: `concat` builds a
 * new message (and re-parses its tool call pieces) for each piece of text. Plain text is kept as
 * strings and joined once; only the chunks that carry more than text (tool call pieces, usage) are
 * concatenated, at the end. A reply whose content is not plain text (content blocks) is
 * concatenated chunk by chunk, exactly as before.
 */
export class ReplyChunks {
  readonly #all: AIMessageChunk[] = [];
  readonly #text: string[] = [];
  #isPlainText = true;

  /** Adds a chunk; returns its text ('' when it has none). */
  add(chunk: AIMessageChunk): string {
    this.#all.push(chunk);
    const content = chunk.content;
    if (typeof content === 'string') {
      if (content !== '') this.#text.push(content);
      return content;
    }
    this.#isPlainText = false;
    return chunk.text;
  }

  /** The whole reply (id, content, tool calls, usage), or undefined when the model streamed nothing. */
  message(): AIMessageChunk | undefined {
    const [first, ...rest] = this.#all;
    if (first === undefined) return undefined;
    if (!this.#isPlainText) return rest.reduce((whole, chunk) => whole.concat(chunk), first);
    return this.#all
      .filter((c) => (c.tool_call_chunks?.length ?? 0) > 0 || c.usage_metadata !== undefined)
      .map(withoutText)
      .reduce((whole, chunk) => whole.concat(chunk), new AIMessageChunk({ content: this.#text.join(''), id: first.id }));
  }
}

function withoutText(chunk: AIMessageChunk): AIMessageChunk {
  return new AIMessageChunk({
    content: '',
    ...(chunk.id === undefined ? {} : { id: chunk.id }),
    tool_call_chunks: chunk.tool_call_chunks ?? [],
    ...(chunk.usage_metadata === undefined ? {} : { usage_metadata: chunk.usage_metadata }),
  });
}
