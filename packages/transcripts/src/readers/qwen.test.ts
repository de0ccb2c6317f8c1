import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from '../inspect';
import { parseQwenJsonl } from './qwen';

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ sessionId: 's', timestamp: '2025-01-01T00:00:00Z', ...fields });

describe('parseQwenJsonl', () => {
  it('keeps records as they are, extra fields included', () => {
    const text = [
      line({
        uuid: 'u1',
        parentUuid: null,
        type: 'user',
        cwd: 'repo',
        message: { role: 'user', parts: [{ text: 'hi' }] },
      }),
      line({
        uuid: 'a1',
        parentUuid: 'u1',
        type: 'assistant',
        model: 'qwen',
        message: { role: 'model', parts: [{ text: 'yo' }] },
      }),
      line({
        uuid: 's1',
        parentUuid: 'a1',
        type: 'system',
        subtype: 'custom_title',
        systemPayload: { title: 'T' },
      }),
    ].join('\n');
    const { records, sidechainRecords, diagnostics } = parseQwenJsonl(text);
    expect(diagnostics).toEqual([]);
    expect(sidechainRecords).toEqual([]);
    expect(records).toEqual([
      {
        uuid: 'u1',
        parentUuid: null,
        type: 'user',
        cwd: 'repo',
        sessionId: 's',
        timestamp: '2025-01-01T00:00:00Z',
        message: { role: 'user', parts: [{ text: 'hi' }] },
      },
      {
        uuid: 'a1',
        parentUuid: 'u1',
        type: 'assistant',
        model: 'qwen',
        sessionId: 's',
        timestamp: '2025-01-01T00:00:00Z',
        message: { role: 'model', parts: [{ text: 'yo' }] },
      },
      {
        uuid: 's1',
        parentUuid: 'a1',
        type: 'system',
        subtype: 'custom_title',
        sessionId: 's',
        timestamp: '2025-01-01T00:00:00Z',
        systemPayload: { title: 'T' },
      },
    ]);
    expect(inspectConversationBranches(records).branches.map((b) => b.leafUuid)).toEqual(['a1']);
  });

  it('reports each structurally invalid line by number and keeps going', () => {
    const text = [
      line({ uuid: 'u1', parentUuid: null, type: 'user' }),
      line({ parentUuid: null, type: 'user' }),
      line({ uuid: 'x', type: 'user' }),
      line({ uuid: 'x', parentUuid: null, type: 'progress' }),
      line({ uuid: 'x', parentUuid: null, type: 'user', message: { role: 'user', content: 'hi' } }),
      line({ uuid: 'x', parentUuid: null, type: 'user', subtype: 3 }),
      line({ uuid: 'x', parentUuid: null, type: 'user', systemPayload: { displayText: 7 } }),
      '{"uuid":"u2","parentUuid":"u1","type":"user"',
      JSON.stringify({ uuid: 'u3', parentUuid: 'u1', type: 'user' }),
    ].join('\n');
    const { records, diagnostics } = parseQwenJsonl(text);
    expect(records.map((r) => [r.uuid, r.sessionId, r.timestamp])).toEqual([
      ['u1', 's', '2025-01-01T00:00:00Z'],
      ['u3', '', ''],
    ]);
    expect(diagnostics.map((d) => [d.kind, d.line, 'reason' in d ? d.reason : undefined])).toEqual([
      ['invalid-record', 2, 'uuid is not a non-empty string'],
      ['invalid-record', 3, 'parentUuid is neither a string nor null'],
      ['invalid-record', 4, 'unknown record type "progress"'],
      ['invalid-record', 5, 'message has no parts array'],
      ['invalid-record', 6, 'subtype or externalInputKind is not a string'],
      ['invalid-record', 7, 'systemPayload is not an object with an optional string displayText'],
      ['malformed-line', 8, undefined],
    ]);
  });
});
