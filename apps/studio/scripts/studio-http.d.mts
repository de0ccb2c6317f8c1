// Types of ./studio-http.mjs for the TypeScript that imports it (its tests).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface SlowClientTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export function slowClientTimeouts(environment: Record<string, string | undefined>): SlowClientTimeouts;

export function createStudioServer(handle: (req: IncomingMessage, res: ServerResponse) => unknown, timeouts: SlowClientTimeouts): Server;
