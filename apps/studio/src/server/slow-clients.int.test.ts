// The server in front of Next (scripts/studio-http.mjs) closes the sockets of clients that dribble
// their headers or their body, within the configured timeouts, and still takes a slow upload that
// arrives within them. Run with short timeouts; the defaults are checked as configuration.
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioServer, slowClientTimeouts } from '../../scripts/studio-http.mjs';

const HEADERS_MS = 600;
const REQUEST_MS = 1500;
/** Node checks the timeouts on an interval (a tenth of the headers timeout here): the close may come that much later, plus a loaded machine's slack. */
const SLACK_MS = 700;

let server: Server;
let port = 0;

beforeAll(async () => {
  server = createStudioServer(
    (req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.length));
      req.on('end', () => res.end(JSON.stringify({ bytes })));
    },
    slowClientTimeouts({ TRELLIS_HEADERS_TIMEOUT_SECONDS: String(HEADERS_MS / 1000), TRELLIS_REQUEST_TIMEOUT_SECONDS: String(REQUEST_MS / 1000) }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends `head` at once, then one byte of `drip` every 100 ms until the server closes the socket. */
function dribble(head: string, drip: string): Promise<{ closedAfterMs: number; answer: string; bytesDripped: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answer = '';
    let sent = 0;
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => {
      if (!socket.writable) return;
      socket.write(drip[sent % drip.length]!);
      sent += 1;
    }, 100);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, answer, bytesDripped: sent });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error('the server kept a dribbling socket open for 10 s'));
    }, 10_000);
  });
}

describe('slow clients', () => {
  it('closes the socket of a client that dribbles its headers within the headers timeout', async () => {
    const { closedAfterMs, bytesDripped } = await dribble('POST /api/transcripts/import HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: a\r\n');
    expect(bytesDripped).toBeGreaterThan(2);
    expect(closedAfterMs).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    expect(closedAfterMs).toBeLessThanOrEqual(HEADERS_MS + SLACK_MS);
  });

  it('closes the socket of a client that dribbles its body within the request timeout (408)', async () => {
    const head = 'POST /api/transcripts/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n';
    const { closedAfterMs, answer, bytesDripped } = await dribble(head, '{');
    expect(bytesDripped).toBeGreaterThan(5);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(closedAfterMs).toBeLessThanOrEqual(REQUEST_MS + SLACK_MS);
  });

  it('still takes an upload that arrives slowly but within the request timeout', async () => {
    const body = 'x'.repeat(64 * 1024);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
        // Eight pieces over ~0.8 s: longer than the headers timeout, within the request timeout.
        let piece = 0;
        const timer = setInterval(() => {
          socket.write(body.slice((piece * body.length) / 8, ((piece + 1) * body.length) / 8));
          piece += 1;
          if (piece === 8) clearInterval(timer);
        }, 100);
      });
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain(`{"bytes":${body.length}}`);
  });

  it('defaults to 20 s for headers and 120 s for a request, and refuses nonsense', () => {
    expect(slowClientTimeouts({})).toEqual({ headersTimeoutMs: 20_000, requestTimeoutMs: 120_000 });
    expect(slowClientTimeouts({ TRELLIS_HEADERS_TIMEOUT_SECONDS: '5', TRELLIS_REQUEST_TIMEOUT_SECONDS: '' })).toEqual({ headersTimeoutMs: 5000, requestTimeoutMs: 120_000 });
    expect(() => slowClientTimeouts({ TRELLIS_REQUEST_TIMEOUT_SECONDS: 'soon' })).toThrow(/positive number/);
    expect(() => slowClientTimeouts({ TRELLIS_HEADERS_TIMEOUT_SECONDS: '200' })).toThrow(/must not exceed/);
  });
});
