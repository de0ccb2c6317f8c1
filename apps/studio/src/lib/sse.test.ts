import { describe, expect, it } from 'vitest';
import { SseParser, readSse } from './sse';

describe('SseParser', () => {
  it('dispatches an event on a blank line with its name and data', () => {
    const parser = new SseParser();
    expect(parser.push('event: token\ndata: {"text":"hi"}\n\n')).toEqual([
      { event: 'token', data: '{"text":"hi"}' },
    ]);
  });

  it('keeps a partial event until the rest arrives, across arbitrary chunk boundaries', () => {
    const parser = new SseParser();
    const stream = 'event: turn\ndata: {"turn_index":1}\n\nevent: done\ndata: {}\n\n';
    const seen = [...stream].flatMap((ch) => parser.push(ch));
    expect(seen.map((m) => m.event)).toEqual(['turn', 'done']);
  });

  it('joins multi-line data, ignores comments and handles CRLF and lone CR', () => {
    const parser = new SseParser();
    const out = parser.push(': keep-alive\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\ndata: c\r\r\n');
    expect(out).toEqual([
      { event: 'x', data: 'a\nb' },
      { event: 'message', data: 'c' },
    ]);
  });

  it('does not split a CRLF that arrives in two chunks into two line ends', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r')).toEqual([]);
    expect(parser.push('\n\r\n')).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('drops an event with no data and resets the name after each dispatch', () => {
    const parser = new SseParser();
    expect(parser.push('event: lonely\n\ndata: x\n\n')).toEqual([{ event: 'message', data: 'x' }]);
  });
});

describe('readSse', () => {
  it('reads events from a byte stream split inside a multi-byte character', async () => {
    const bytes = new TextEncoder().encode('event: token\ndata: {"text":"é"}\n\n');
    const cut = bytes.indexOf(0xc3) + 1;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const events = [];
    for await (const e of readSse(body)) events.push(e);
    expect(events).toEqual([{ event: 'token', data: '{"text":"é"}' }]);
  });
});
