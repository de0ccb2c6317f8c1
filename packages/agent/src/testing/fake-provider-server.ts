// A local HTTP server that speaks just enough of the OpenAI chat completions
// or the Anthropic messages streaming protocol to drive the real provider
// classes in tests: each request gets the next scripted reply — streamed as
// server-sent events, or an error the way each protocol writes one
// (`{error: {message, type, code}}` for OpenAI, `{type: 'error', error: {type,
// message}}` for Anthropic, `Retry-After` on a 429), a request that is never
// answered, or a stream cut mid-reply — and every request body is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeReply {
  text?: string;
  toolCalls?: { id: string; name: string; args: Record<string, unknown> }[];
  /** Pause between streamed events, in ms. */
  delayMs?: number;
  /** Answer with this HTTP error instead of a stream. */
  error?: { status: number; message: string; type?: string; code?: string; retryAfter?: string };
  /** Never answer (the request hangs until the client gives up). */
  hang?: boolean;
  /** After this many words of `text`, stop sending without closing (a stream that hangs mid-reply). */
  hangAfterWords?: number;
  /** After this many words of `text`, destroy the connection (a stream dropped mid-reply). */
  dropAfterWords?: number;
  /** Token counts the reply reports (OpenAI: only when the request asked for usage). */
  usage?: { input: number; output: number };
}

export interface FakeProviderServer {
  url: string;
  requests: { path: string; body: Record<string, unknown>; headers: Record<string, string | string[] | undefined>; at: number }[];
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
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    state.requests.push({ path: req.url ?? '', body, headers: req.headers, at: Date.now() });
    const reply = queue.shift() ?? { text: '(no more replies)' };
    let closed = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        state.disconnects += 1;
      }
    });
    if (reply.hang) return;
    if (reply.error) {
      const { status, message, retryAfter } = reply.error;
      const errorBody =
        protocol === 'openai'
          ? { error: { message, type: reply.error.type ?? 'invalid_request_error', code: reply.error.code ?? null } }
          : { type: 'error', error: { type: reply.error.type ?? 'invalid_request_error', message } };
      res.writeHead(status, { 'content-type': 'application/json', ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) });
      res.end(JSON.stringify(errorBody));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const wantsUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const events = protocol === 'openai' ? openaiEvents(reply, wantsUsage) : anthropicEvents(reply);
    let wordsSent = 0;
    for (const { text, isWord } of events) {
      if (closed) return;
      if (isWord && reply.dropAfterWords !== undefined && wordsSent === reply.dropAfterWords) {
        res.socket?.destroy();
        return;
      }
      if (isWord && reply.hangAfterWords !== undefined && wordsSent === reply.hangAfterWords) return;
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      // Flushed before the next step, so a drop cuts the stream after what was written.
      await new Promise<void>((resolve) => res.write(text, () => resolve()));
      if (isWord) wordsSent += 1;
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = protocol === 'openai' ? `http://127.0.0.1:${port}/v1` : `http://127.0.0.1:${port}`;
  return state;
}

interface WireEvent {
  text: string;
  /** One word of the reply's text (what `dropAfterWords` and `hangAfterWords` count). */
  isWord: boolean;
}

const words = (text: string) => text.match(/\s*\S+\s*/g) ?? [];

function* openaiEvents(reply: FakeReply, wantsUsage: boolean): Generator<WireEvent> {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: 'fake-model' };
  const data = (choice: Record<string, unknown>) => ({
    text: `data: ${JSON.stringify({ ...base, choices: [{ index: 0, ...choice }] })}\n\n`,
    isWord: false,
  });
  yield data({ delta: { role: 'assistant', content: '' }, finish_reason: null });
  for (const word of words(reply.text ?? '')) yield { ...data({ delta: { content: word }, finish_reason: null }), isWord: true };
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    const args = JSON.stringify(call.args);
    const half = Math.floor(args.length / 2);
    yield data({ delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } }] }, finish_reason: null });
    yield data({ delta: { tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, finish_reason: null });
  }
  yield data({ delta: {}, finish_reason: reply.toolCalls?.length ? 'tool_calls' : 'stop' });
  if (wantsUsage && reply.usage) {
    const { input, output } = reply.usage;
    yield {
      text: `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output } })}\n\n`,
      isWord: false,
    };
  }
  yield { text: 'data: [DONE]\n\n', isWord: false };
}

function* anthropicEvents(reply: FakeReply): Generator<WireEvent> {
  const event = (type: string, body: Record<string, unknown>) => ({ text: `event: ${type}\ndata: ${JSON.stringify({ type, ...body })}\n\n`, isWord: false });
  const usage = reply.usage ?? { input: 10, output: 20 };
  yield event('message_start', {
    message: { id: 'msg_fake', type: 'message', role: 'assistant', content: [], model: 'fake-model', stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: 1 } },
  });
  let index = 0;
  if (reply.text) {
    yield event('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const word of words(reply.text)) yield { ...event('content_block_delta', { index, delta: { type: 'text_delta', text: word } }), isWord: true };
    yield event('content_block_stop', { index });
    index += 1;
  }
  for (const call of reply.toolCalls ?? []) {
    yield event('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    yield event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args) } });
    yield event('content_block_stop', { index });
    index += 1;
  }
  yield event('message_delta', { delta: { stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output } });
  yield event('message_stop', {});
}
