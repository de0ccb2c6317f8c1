// Starts the production build behind scripts/server.mjs (`next start` plus the
// socket address header the rate limits need). The studio process itself starts
// (or reaches) PostgreSQL and migrates at boot (src/instrumentation.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const studioDir = path.resolve(import.meta.dirname, '..');

export interface ServeOptions {
  host: string;
  port: number;
  env?: Record<string, string | undefined>;
  stdio?: 'inherit' | 'pipe';
  /**
   * Runs the studio (and the embedded PostgreSQL it starts) in a process group of its own: a
   * terminal's Ctrl+C goes to the whole foreground group, and a postmaster there would stop at
   * once, before the drain stores the replies in flight. The caller must pass signals on.
   */
  ownProcessGroup?: boolean;
}

export function serve(options: ServeOptions): ChildProcess {
  return spawn(
    process.execPath,
    [path.join(studioDir, 'scripts/server.mjs')],
    {
      cwd: studioDir,
      detached: options.ownProcessGroup === true,
      stdio: options.stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        // Our boot code stops the embedded Postgres, then exits (see server/boot.ts).
        NEXT_MANUAL_SIG_HANDLE: 'true',
        HOST: options.host,
        PORT: String(options.port),
        ...options.env,
      },
    },
  );
}

/** Resolves when GET /api/health answers ok, or rejects after `timeoutMs`. */
export async function waitForHealthy(baseUrl: string, timeoutMs = 90_000, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`studio exited with code ${child.exitCode} before it was healthy`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
      last = `${response.status} ${await response.text()}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`studio not healthy after ${timeoutMs} ms: ${last}`);
}
