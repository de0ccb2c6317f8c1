// How one model call waits, gives up and retries: the one place that
// does it. The SDKs' own retries are off (`maxRetries: 0` in models/*); their request timeouts are
// left long, so this watchdog — no chunk within `timeoutMs`, first or next — is what ends a hang.
// A call is sent again only while nothing of it reached the person: a rate limit (after the
// provider's Retry-After), a 5xx, a refused or lost connection; never a timeout (no silent second
// wait), and never after text streamed.
import type { ProviderFailure } from '@trellis/domain';

export interface ModelCallPolicy {
  /** Retries after the first call (LLM_MAX_RETRIES). */
  maxRetries: number;
  /** No chunk for this long — before the first, or between two — ends the call (LLM_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** No chunk for this long: the turn's stream says it is waiting. */
  waitingAfterMs: number;
  /** A provider that asks for a longer wait is not waited for: the reply fails and says how long. */
  maxRetryWaitMs: number;
  /** Values never written into a reason or a log (the configured API key). */
  secrets: readonly string[];
}

export const DEFAULT_MODEL_CALL_POLICY: ModelCallPolicy = {
  maxRetries: 2,
  timeoutMs: 60_000,
  waitingAfterMs: 3_000,
  maxRetryWaitMs: 60_000,
  secrets: [],
};

export function resolveModelCallPolicy(policy: Partial<ModelCallPolicy> | undefined): ModelCallPolicy {
  return { ...DEFAULT_MODEL_CALL_POLICY, ...policy };
}

/** The wait before retry number `retry` (1-based) after `failure`, or undefined when it is not retried. */
export function retryDelayMs(failure: ProviderFailure, retry: number, policy: ModelCallPolicy): number | undefined {
  if (retry > policy.maxRetries) return undefined;
  const isRetried =
    failure.code === 'rate_limited' ||
    failure.code === 'unreachable' ||
    failure.code === 'dropped' ||
    (failure.code === 'provider_error' && (failure.status === undefined || failure.status >= 500 || failure.status === 408));
  if (!isRetried) return undefined;
  const delay = failure.retryAfterS === undefined ? Math.min(8_000, 1_000 * 2 ** (retry - 1)) : failure.retryAfterS * 1000;
  return delay <= policy.maxRetryWaitMs ? delay : undefined;
}

/**
 * Watches one call: aborts it when no chunk arrives within `timeoutMs` (`timedOut` then says so),
 * and calls `onWaiting` once per silence of `waitingAfterMs`. Two timer refreshes per chunk; no I/O.
 */
export class CallWatchdog {
  readonly #controller = new AbortController();
  readonly #timeout: NodeJS.Timeout;
  readonly #waiting: NodeJS.Timeout | undefined;
  readonly #parent: AbortSignal | undefined;
  readonly #forward = () => this.#controller.abort(this.#parent?.reason);
  timedOut = false;
  hasStreamed = false;

  constructor(policy: ModelCallPolicy, parent: AbortSignal | undefined, onWaiting: () => void) {
    this.#parent = parent;
    if (parent?.aborted) this.#forward();
    else parent?.addEventListener('abort', this.#forward, { once: true });
    this.#timeout = setTimeout(() => {
      this.timedOut = true;
      this.#controller.abort(new Error(`no reply from the model within ${policy.timeoutMs} ms`));
    }, policy.timeoutMs);
    this.#waiting = policy.waitingAfterMs < policy.timeoutMs ? setTimeout(onWaiting, policy.waitingAfterMs) : undefined;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** A chunk arrived. */
  alive(): void {
    this.hasStreamed = true;
    this.#timeout.refresh();
    this.#waiting?.refresh();
  }

  stop(): void {
    clearTimeout(this.#timeout);
    clearTimeout(this.#waiting);
    this.#parent?.removeEventListener('abort', this.#forward);
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
