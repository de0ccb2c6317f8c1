// Reads an error thrown by a provider SDK (openai, @anthropic-ai/sdk, through LangChain) or by the
// network under it into a ProviderFailure. Structural, not `instanceof`: the SDK classes differ per
// provider and per bundled copy, their fields do not — `status`, `headers` (a fetch Headers),
// `error` (the parsed body: OpenAI's `{message, type, code}`, Anthropic's `{type: 'error', error:
// {type, message}}`), and a network error's `cause`.
import { MAX_PROVIDER_MESSAGE_CHARS, redactSecrets, type ProviderFailure } from '@trellis/domain';

/** Thrown by a model call that failed for a reason the person can act on; `message` is the stored reason. */
export class ProviderCallError extends Error {
  override readonly name = 'ProviderCallError';
  constructor(
    readonly failure: ProviderFailure,
    message: string,
  ) {
    super(message);
  }
}

/** A ProviderCallError, also one thrown by another bundled copy of this module. */
export function isProviderCallError(error: unknown): error is ProviderCallError {
  return error instanceof Error && error.name === 'ProviderCallError' && typeof (error as { failure?: unknown }).failure === 'object';
}

/** What the model call knew when it failed. */
export interface FailureContext {
  /** The provider sent something (a chunk) before the error: the connection was up. */
  hasStreamed: boolean;
  /** Our own watchdog ended the call (no token within the timeout), after this many seconds. */
  timedOutAfterS?: number | undefined;
  /** Values that must never appear in a stored reason or a log (the configured key). */
  secrets: readonly string[];
}

const CONTEXT_TOO_LONG = /context[_ ]length|context window|too many tokens|prompt is too long|maximum context|too long/i;
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'UND_ERR_CONNECT_TIMEOUT']);

export function classifyProviderError(error: unknown, context: FailureContext): ProviderFailure {
  if (context.timedOutAfterS !== undefined) return { code: 'timeout', timeoutS: context.timedOutAfterS };
  const fields = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const status = typeof fields.status === 'number' ? fields.status : undefined;
  const message = providerMessage(fields, context.secrets);
  if (status !== undefined) {
    if (status === 401 || status === 403) return { code: 'auth', status, message };
    if (status === 429) return { code: 'rate_limited', status, message, retryAfterS: retryAfterSeconds(fields) };
    if (status === 404) return { code: 'model_not_found', status, message };
    const code = typeof (fields.error as { code?: unknown } | undefined)?.code === 'string' ? (fields.error as { code: string }).code : '';
    if ((status === 400 || status === 413) && (code === 'context_length_exceeded' || CONTEXT_TOO_LONG.test(message ?? ''))) {
      return { code: 'context_too_long', status, message };
    }
    return { code: 'provider_error', status, message, retryAfterS: retryAfterSeconds(fields) };
  }
  const cause = causeText(error, context.secrets);
  if (context.hasStreamed) return { code: 'dropped', message: cause };
  const errno = networkCode(error);
  if (errno !== undefined && UNREACHABLE_CODES.has(errno)) return { code: 'unreachable', message: cause };
  if (fields.name === 'APIConnectionError' || /fetch failed|connection error/i.test((typeof fields.message === 'string' ? fields.message : ''))) {
    return { code: 'unreachable', message: cause };
  }
  if (/terminated|socket|other side closed/i.test(cause ?? '')) return { code: 'dropped', message: cause };
  return { code: 'provider_error', message: cause };
}

/** The provider's own words: the error body's message, else the SDK's message without its decorations. */
function providerMessage(fields: Record<string, unknown>, secrets: readonly string[]): string | undefined {
  const body = fields.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const fromBody = typeof body?.error?.message === 'string' ? body.error.message : typeof body?.message === 'string' ? body.message : undefined;
  const raw =
    fromBody ??
    (typeof fields.message === 'string'
      ? fields.message
          .replace(/\s*Troubleshooting URL:.*$/s, '')
          .replace(/^\d{3}\s+/, '')
          .trim()
      : undefined);
  return raw === undefined || raw === '' || raw === 'status code (no body)' ? undefined : redactSecrets(raw, secrets, { maxChars: MAX_PROVIDER_MESSAGE_CHARS });
}

/** Seconds from `retry-after-ms`, `retry-after` (seconds or an HTTP date), or the SDK's own reading of them. */
function retryAfterSeconds(fields: Record<string, unknown>): number | undefined {
  const headers = fields.headers as { get?: (name: string) => string | null } | Record<string, string> | null | undefined;
  const header = (name: string): string | undefined => {
    if (headers === null || headers === undefined) return undefined;
    if (typeof headers.get === 'function') return (headers as { get: (n: string) => string | null }).get(name) ?? undefined;
    const value = (headers as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  };
  const ms = Number(header('retry-after-ms'));
  if (header('retry-after-ms') !== undefined && Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const after = header('retry-after');
  if (after !== undefined) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, (date - Date.now()) / 1000);
  }
  return typeof fields.retryAfterMs === 'number' && fields.retryAfterMs >= 0 ? fields.retryAfterMs / 1000 : undefined;
}

function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

/** The innermost message of an error chain (undici's "other side closed" under fetch's "terminated"). */
function causeText(error: unknown, secrets: readonly string[]): string | undefined {
  let text: string | undefined;
  for (let e: unknown = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth += 1) {
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') text = message;
  }
  return text === undefined ? undefined : redactSecrets(text, secrets, { maxChars: MAX_PROVIDER_MESSAGE_CHARS });
}
