import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { reusingMessageJson } from './message-serde';

const stock = new MemorySaver().serde;

const context = () => [
  new HumanMessage({ id: 'h1', content: 'Write the “intro” — with quotes, a tab\tand emoji 🐝' }),
  new AIMessage({
    id: 'a1',
    content: 'Adding it.',
    tool_calls: [{ id: 'call_1', name: 'add_todo', args: { text: 'Intro', depth: 0 } }],
    usage_metadata: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
  }),
  new ToolMessage({ tool_call_id: 'call_1', name: 'add_todo', content: 'Todo added: "Intro".', status: 'success' }),
  new AIMessage({ id: 'a2', content: [{ type: 'text', text: 'Done.' }] }),
];

describe('reusingMessageJson', () => {
  it('writes a list of messages byte for byte as the stock serializer does, and reads it back the same way', async () => {
    const serde = reusingMessageJson(stock);
    const messages = context();
    const [type, bytes] = await serde.dumpsTyped(messages);
    expect([type, Buffer.from(bytes).toString()]).toEqual(await stock.dumpsTyped(messages).then(([t, b]) => [t, Buffer.from(b).toString()]));
    expect(await serde.loadsTyped(type, bytes)).toEqual(await stock.loadsTyped(type, bytes));
  });

  it('stays byte-identical as the list grows, is trimmed and reuses the messages it already wrote', async () => {
    const serde = reusingMessageJson(stock);
    const messages = context();
    await serde.dumpsTyped(messages);
    const next = [...messages.slice(1), new HumanMessage({ id: 'h2', content: 'Go on' }), new AIMessage({ id: 'a3', content: 'Going on.' })];
    const [, ours] = await serde.dumpsTyped(next);
    const [, theirs] = await stock.dumpsTyped(next);
    expect(Buffer.from(ours).toString()).toBe(Buffer.from(theirs).toString());
  });

  it('turns into JSON only the messages it has not written yet', async () => {
    const seen: unknown[] = [];
    const serde = reusingMessageJson({ ...stock, dumpsTyped: (data: unknown) => (seen.push(data), stock.dumpsTyped(data)), loadsTyped: stock.loadsTyped.bind(stock) });
    const messages = context();
    await serde.dumpsTyped(messages);
    seen.length = 0;
    const added = new HumanMessage({ id: 'h2', content: 'Go on' });
    await serde.dumpsTyped([...messages, added]);
    expect(seen).toEqual([added]);
  });

  it('writes a message again once its content changed', async () => {
    const serde = reusingMessageJson(stock);
    const message = new AIMessage({ id: 'a1', content: 'first' });
    await serde.dumpsTyped([message]);
    message.content = 'second';
    const [, bytes] = await serde.dumpsTyped([message]);
    expect(Buffer.from(bytes).toString()).toContain('second');
  });

  it('leaves everything else to the stock serializer', async () => {
    const serde = reusingMessageJson(stock);
    for (const value of [[], ['a', 1], { messages: [new SystemMessage('x')] }, new Uint8Array([1, 2]), 'text']) {
      const [type, bytes] = await serde.dumpsTyped(value);
      expect([type, Buffer.from(bytes).toString()]).toEqual(await stock.dumpsTyped(value).then(([t, b]) => [t, Buffer.from(b).toString()]));
    }
  });
});
