import { describe, expect, it } from 'vitest';
import { ccUser, jsonl } from './fixtures/claude-code-lines';
import { parallelToolCalls } from './fixtures/claude-code-sessions';
import { detectTranscriptFormat, parseTranscriptJsonl } from './transcript';

const qwenText = JSON.stringify({
  uuid: 'u1',
  parentUuid: null,
  sessionId: 's',
  timestamp: 't',
  type: 'user',
  message: { role: 'user', parts: [{ text: 'hi' }] },
});

describe('detectTranscriptFormat', () => {
  it('recognises each format from its records', () => {
    expect(detectTranscriptFormat(parallelToolCalls)).toBe('claude-code');
    expect(detectTranscriptFormat(qwenText)).toBe('qwen-code');
    expect(detectTranscriptFormat(jsonl({ type: 'summary', summary: 's', leafUuid: 'x' }))).toBe(
      'claude-code',
    );
  });

  it('is undefined when nothing decides', () => {
    expect(detectTranscriptFormat('')).toBeUndefined();
    expect(detectTranscriptFormat('not json\n{"uuid":"x"}')).toBeUndefined();
  });
});

describe('parseTranscriptJsonl', () => {
  it('dispatches on the detected format, or on the one given', () => {
    expect(parseTranscriptJsonl(jsonl(ccUser('u1', null, 'hi'))).format).toBe('claude-code');
    expect(parseTranscriptJsonl(qwenText).records.map((r) => r.uuid)).toEqual(['u1']);
    expect(parseTranscriptJsonl('').format).toBe('qwen-code');
    const forced = parseTranscriptJsonl(jsonl(ccUser('u1', null, 'hi')), { format: 'qwen-code' });
    expect(forced.diagnostics).toEqual([
      { kind: 'invalid-record', line: 1, reason: 'message has no parts array' },
    ]);
  });
});
