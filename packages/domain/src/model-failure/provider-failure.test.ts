import { describe, expect, it } from 'vitest';
import { describeProviderFailure, isTransientFailure, redactSecrets } from './provider-failure';

describe('describeProviderFailure', () => {
  it('says what happened, with the provider’s status and words, and what to check', () => {
    expect(describeProviderFailure({ code: 'auth', status: 401, message: 'Incorrect API key provided' })).toBe(
      'the provider refused the API key (401: Incorrect API key provided) — check LLM_API_KEY',
    );
    expect(describeProviderFailure({ code: 'rate_limited', status: 429, message: 'Slow down', retryAfterS: 20 })).toBe(
      'the provider is rate limiting requests (429: Slow down) — it asked to wait 20 s',
    );
    expect(describeProviderFailure({ code: 'timeout', timeoutS: 2 })).toBe('the model sent nothing for 2 s (timed out)');
    expect(describeProviderFailure({ code: 'dropped', message: 'other side closed' })).toBe(
      'the connection to the provider dropped mid-reply (other side closed)',
    );
    expect(describeProviderFailure({ code: 'model_not_found', status: 404 })).toBe('the provider does not know this model (404) — check LLM_MODEL');
  });

  it('retries what a later attempt may not meet, never a refused key or an unknown model', () => {
    expect(isTransientFailure({ code: 'rate_limited', status: 429 })).toBe(true);
    expect(isTransientFailure({ code: 'provider_error', status: 503 })).toBe(true);
    expect(isTransientFailure({ code: 'provider_error', status: 400 })).toBe(false);
    expect(isTransientFailure({ code: 'auth', status: 401 })).toBe(false);
    expect(isTransientFailure({ code: 'model_not_found', status: 404 })).toBe(false);
  });
});

describe('redactSecrets', () => {
  it('removes the configured key, key-shaped strings and bearer tokens', () => {
    const key = 'my-local-key-0123456789';
    const text = `bad key ${key}; Incorrect API key provided: sk-proj-AbC123xyz987; header Authorization: Bearer abc.def-ghi; sk-ant-api03-zzzzzzzz`;
    const redacted = redactSecrets(text, [key]);
    expect(redacted).not.toContain(key);
    expect(redacted).not.toContain('AbC123xyz987');
    expect(redacted).not.toContain('abc.def-ghi');
    expect(redacted).not.toContain('zzzzzzzz');
    expect(redacted).toContain('bad key [redacted]');
    expect(redacted).toContain('Bearer [redacted]');
  });

  it('clamps a long message', () => {
    expect(redactSecrets('x'.repeat(1000), [], { maxChars: 300 }).length).toBe(300);
    expect(redactSecrets('x'.repeat(1000)).length).toBe(1000);
  });
});
