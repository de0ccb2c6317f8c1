// Why a model call failed, in words a person can act on. The
// agent classifies the provider's error into a ProviderFailure; the reply stores the code (the
// studio picks its one action from it) and the sentence below (what the person reads). Pure: the
// classification of SDK errors lives in the agent, the wording here.
import { z } from 'zod';

export const FAILURE_CODES = [
  'auth',
  'rate_limited',
  'model_not_found',
  'context_too_long',
  'timeout',
  'unreachable',
  'dropped',
  'provider_error',
] as const;

export const FailureCodeSchema = z
  .enum(FAILURE_CODES)
  .describe(
    'why a `failed` reply failed: `auth` (401/403, a wrong or missing key), `rate_limited` (429), `model_not_found` (404), `context_too_long`, `timeout` (no token within LLM_TIMEOUT_SECONDS), `unreachable` (no connection), `dropped` (the connection closed mid-reply), `provider_error` (anything else the provider answered)',
  );
export type FailureCode = z.infer<typeof FailureCodeSchema>;

export interface ProviderFailure {
  code: FailureCode;
  /** The provider's HTTP status, when it answered with one. */
  status?: number | undefined;
  /** The provider's own message (redacted), when it sent one. */
  message?: string | undefined;
  /** How long the provider asked to wait (Retry-After), in seconds. */
  retryAfterS?: number | undefined;
  /** The timeout that expired, in seconds (code `timeout`). */
  timeoutS?: number | undefined;
}

/** Failures a later attempt may not meet: a rate limit, a timeout, a lost or refused connection, a 5xx. */
export function isTransientFailure(failure: ProviderFailure): boolean {
  switch (failure.code) {
    case 'rate_limited':
    case 'timeout':
    case 'unreachable':
    case 'dropped':
      return true;
    case 'provider_error':
      return failure.status === undefined || failure.status >= 500 || failure.status === 408 || failure.status === 409;
    case 'auth':
    case 'model_not_found':
    case 'context_too_long':
      return false;
  }
}

const LEADS: Record<FailureCode, string> = {
  auth: 'the provider refused the API key',
  rate_limited: 'the provider is rate limiting requests',
  model_not_found: 'the provider does not know this model',
  context_too_long: 'the conversation is too long for the model’s context',
  timeout: 'the model stopped answering',
  unreachable: 'the provider could not be reached',
  dropped: 'the connection to the provider dropped mid-reply',
  provider_error: 'the provider failed to answer',
};

const HINTS: Partial<Record<FailureCode, string>> = {
  auth: 'check LLM_API_KEY',
  model_not_found: 'check LLM_MODEL',
  unreachable: 'check LLM_BASE_URL',
};

/**
 * The sentence stored as a failed reply's `reason`: what happened, the provider's status and own
 * message, the wait it asked for, and what to check, e.g. "the provider refused the API key (401:
 * Incorrect API key provided) — check LLM_API_KEY".
 */
export function describeProviderFailure(failure: ProviderFailure): string {
  const lead = failure.code === 'timeout' && failure.timeoutS !== undefined
    ? `the model sent nothing for ${formatSeconds(failure.timeoutS)} (timed out)`
    : LEADS[failure.code];
  const said = [failure.status === undefined ? undefined : String(failure.status), failure.message].filter((p) => p !== undefined && p !== '');
  const detail = said.length === 0 ? '' : ` (${said.join(': ')})`;
  const wait = failure.retryAfterS === undefined ? '' : ` — it asked to wait ${formatSeconds(failure.retryAfterS)}`;
  const hint = HINTS[failure.code];
  return `${lead}${detail}${wait}${hint === undefined ? '' : ` — ${hint}`}`;
}

function formatSeconds(seconds: number): string {
  return `${Math.round(seconds * 10) / 10} s`;
}

/** A provider's message in a stored reason is clamped to this many characters. */
export const MAX_PROVIDER_MESSAGE_CHARS = 300;

/**
 * Removes secrets from text a provider or an SDK wrote, before it is stored or logged: every given
 * secret (the configured key), and anything shaped like a key (`sk-…`, `sk-ant-…`) or a bearer
 * token. With `maxChars`, a long message is clamped.
 */
export function redactSecrets(text: string, secrets: readonly string[] = [], options: { maxChars?: number } = {}): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  out = out
    .replace(/\bsk-[A-Za-z0-9_*.-]{6,}/g, 'sk-[redacted]')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=*-]+/gi, '$1 [redacted]')
    .replace(/\b(x-api-key|api[_-]?key|authorization)(["']?\s*[:=]\s*["']?)(?!(?:Bearer|Basic)\b)[^\s"',}]+/gi, '$1$2[redacted]');
  const max = options.maxChars;
  return max !== undefined && out.length > max ? `${out.slice(0, max - 1)}…` : out;
}
