import { describe, expect, it } from 'vitest';
import { classifyProviderError } from './provider-errors';
import { DEFAULT_MODEL_CALL_POLICY, retryDelayMs } from '../nodes/model-call-policy';

const context = { hasStreamed: false, secrets: ['sk-configured-key-123'] };
const headers = (entries: Record<string, string>) => new Headers(entries);

describe('classifyProviderError', () => {
  it('reads the status, the provider’s own message from either protocol’s body, and the wait', () => {
    expect(
      classifyProviderError({ status: 401, error: { message: 'Incorrect API key provided: sk-configured-key-123', type: 'invalid_request_error' } }, context),
    ).toEqual({ code: 'auth', status: 401, message: 'Incorrect API key provided: [redacted]' });
    expect(
      classifyProviderError({ status: 429, headers: headers({ 'retry-after': '20' }), error: { type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } } }, context),
    ).toMatchObject({ code: 'rate_limited', status: 429, message: 'Slow down', retryAfterS: 20 });
    expect(classifyProviderError({ status: 429, headers: headers({ 'retry-after-ms': '1500' }) }, context)).toMatchObject({ retryAfterS: 1.5 });
    expect(classifyProviderError({ status: 404, error: { message: 'model "x" not found' } }, context)).toMatchObject({ code: 'model_not_found' });
    expect(
      classifyProviderError({ status: 400, error: { message: 'This model’s maximum context length is 8192 tokens', code: 'context_length_exceeded' } }, context),
    ).toMatchObject({ code: 'context_too_long', status: 400 });
    expect(classifyProviderError({ status: 503, message: '503 Service Unavailable' }, context)).toMatchObject({ code: 'provider_error', status: 503 });
  });

  it('tells a refused connection from one dropped mid-reply, and names our own timeout', () => {
    const refused = Object.assign(new Error('Connection error.'), { cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' } }) });
    expect(classifyProviderError(refused, context)).toMatchObject({ code: 'unreachable', message: 'connect ECONNREFUSED 127.0.0.1:9' });
    const terminated = Object.assign(new TypeError('terminated'), { cause: new Error('other side closed') });
    expect(classifyProviderError(terminated, { ...context, hasStreamed: true })).toEqual({ code: 'dropped', message: 'other side closed' });
    expect(classifyProviderError(new Error('aborted'), { ...context, timedOutAfterS: 60 })).toEqual({ code: 'timeout', timeoutS: 60 });
  });
});

describe('retryDelayMs', () => {
  const policy = { ...DEFAULT_MODEL_CALL_POLICY, maxRetries: 2 };
  it('waits what the provider asked, backs off otherwise, and gives up past the bound or on what a retry cannot mend', () => {
    expect(retryDelayMs({ code: 'rate_limited', status: 429, retryAfterS: 2 }, 1, policy)).toBe(2000);
    expect(retryDelayMs({ code: 'provider_error', status: 502 }, 2, policy)).toBe(2000);
    expect(retryDelayMs({ code: 'rate_limited', status: 429 }, 3, policy)).toBeUndefined();
    expect(retryDelayMs({ code: 'rate_limited', status: 429, retryAfterS: 600 }, 1, policy)).toBeUndefined();
    expect(retryDelayMs({ code: 'timeout', timeoutS: 60 }, 1, policy)).toBeUndefined();
    expect(retryDelayMs({ code: 'auth', status: 401 }, 1, policy)).toBeUndefined();
    expect(retryDelayMs({ code: 'provider_error', status: 400 }, 1, policy)).toBeUndefined();
  });
});
