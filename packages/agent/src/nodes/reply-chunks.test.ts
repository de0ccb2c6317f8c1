import { AIMessageChunk } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { toStoredMessage } from './chat';
import { ReplyChunks } from './reply-chunks';

/** The oracle: every chunk concatenated into the last, as LangChain merges a stream. */
function concatenated(chunks: AIMessageChunk[]) {
  return toStoredMessage(chunks.reduce((whole, chunk) => whole.concat(chunk)));
}

function gathered(chunks: AIMessageChunk[]) {
  const reply = new ReplyChunks();
  const texts = chunks.map((c) => reply.add(c));
  return { texts, stored: toStoredMessage(reply.message()!) };
}

const text = (content: string, id = 'run-1') => new AIMessageChunk({ content, id });

describe('ReplyChunks', () => {
  it('is nothing for a stream of no chunks', () => {
    expect(new ReplyChunks().message()).toBeUndefined();
  });

  it('joins plain text as concat does, and hands each chunk its text', () => {
    const chunks = ['The ', 'reply ', '', 'in pieces.'].map((t) => text(t));
    const { texts, stored } = gathered(chunks);
    expect(texts).toEqual(['The ', 'reply ', '', 'in pieces.']);
    expect(stored).toEqual(concatenated(chunks));
    expect(stored.content).toBe('The reply in pieces.');
    expect(stored.id).toBe('run-1');
  });

  it('merges tool call pieces split over chunks, among text, and usage on the last chunk, as concat does', () => {
    const chunks = [
      text('Adding '),
      new AIMessageChunk({ content: 'two todos.', id: 'run-1', tool_call_chunks: [{ index: 0, id: 'call_a', name: 'add_todo', args: '{"te' }] }),
      new AIMessageChunk({ content: '', id: 'run-1', tool_call_chunks: [{ index: 0, args: 'xt":"Outline"}' }] }),
      new AIMessageChunk({ content: '', id: 'run-1', tool_call_chunks: [{ index: 1, id: 'call_b', name: 'add_todo', args: '{"text":"Draft"}' }] }),
      new AIMessageChunk({ content: '', id: 'run-1', tool_call_chunks: [{ index: 2, id: 'call_c', name: 'add_todo', args: '{"text": oops' }] }),
      new AIMessageChunk({ content: '', id: 'run-1', usage_metadata: { input_tokens: 10, output_tokens: 7, total_tokens: 17 } }),
    ];
    const { stored } = gathered(chunks);
    expect(stored).toEqual(concatenated(chunks));
    expect(stored.content).toBe('Adding two todos.');
    expect(stored.tool_calls?.map((c) => [c.id, c.args])).toEqual([
      ['call_a', { text: 'Outline' }],
      ['call_b', { text: 'Draft' }],
    ]);
    expect(stored.invalid_tool_calls?.map((c) => c.id)).toEqual(['call_c']);
    expect(stored.usage_metadata?.total_tokens).toBe(17);
  });

  it('concatenates content blocks chunk by chunk, as concat does', () => {
    const chunks = [
      new AIMessageChunk({ content: [{ type: 'text', text: 'Block ', index: 0 }], id: 'run-2' }),
      new AIMessageChunk({ content: [{ type: 'text', text: 'text.', index: 0 }], id: 'run-2' }),
    ];
    const { texts, stored } = gathered(chunks);
    expect(texts).toEqual(['Block ', 'text.']);
    expect(stored).toEqual(concatenated(chunks));
  });
});
