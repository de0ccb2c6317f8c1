// A local HTTP server that speaks just enough of the OpenAI chat completions
// or the Anthropic messages streaming protocol to drive the real provider
// classes in tests: each request gets the next scripted reply, streamed as
// server-sent events, and every request body is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  text?: string;
  toolCalls?: { id: string; name: string; args: Record<string, unknown> }[];
  /** Pause between streamed events, in ms. */
  delayMs?: number;
}

export interface FakeProviderServer {
  url: string;
  requests: { path: string; body: Record<string, unknown> }[];
  /** Requests whose connection the client closed before the reply ended. */
  disconnects: number;
  close(): Promise<void>;
}

type Protocol = 'openai' | 'anthropic';

export async function startFakeProvider(protocol: Protocol, replies: FakeReply[]): Promise<FakeProviderServer> {
  const queue = [...replies];
  const state: FakeProviderServer = {
    url: '',
    requests: [],
    disconnects: 0,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    state.requests.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
    const reply = queue.shift() ?? { text: '(no more replies)' };
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let closed = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        state.disconnects += 1;
      }
    });
    for (const event of protocol === 'openai' ? openaiEvents(reply) : anthropicEvents(reply)) {
      if (closed) return;
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      res.write(event);
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = protocol === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  return state;
}

const words = (text: string) => text.match(/\s*\S+\s*/g) ?? [];

function* openaiEvents(reply: FakeReply): Generator<string> {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: 'fake' };
  const data = (choice: Record<string, unknown>) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }] })}\n\n`;
  yield data({ delta: { role: 'assistant', content: '' }, finish_reason: null });
  for (const word of words(reply.text ?? '')) yield data({ delta: { content: word }, finish_reason: null });
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const args = JSON.stringify(call.args);
    const half = Math.floor(args.length / 2);
    yield data({ delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } }] }, finish_reason: null });
    yield data({ delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, finish_reason: null });
  }
  yield data({ delta: {}, finish_reason: reply.toolCalls?.length ? 'tool_calls' : 'stop' });
  yield 'data: [DONE]\n\n';
}

function* anthropicEvents(reply: FakeReply): Generator<string> {
  const event = (type: string, body: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`;
  yield event('message_start', {
    message: { id: 'msg_fake', type: 'message', role: 'assistant', content: [], model: 'fake', stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
  });
  let index = 0;
  if (reply.text) {
    yield event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const word of words(reply.text)) yield event('content_block_delta', { index, delta: { type: 'text_delta', text: word } });
    yield event('content_block_stop', { index });
    index += 1;
  }
  for (const call of reply.toolCalls ?? []) {
    yield event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    yield event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) } });
    yield event('content_block_stop', { index });
    index += 1;
  }
  yield event('message_delta', { delta: { stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 20 } });
  yield event('message_stop', {});
}
