// The edges of the long-tail rules: what they change, and what they leave alone.
import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from '../inspect';
import { parseClaudeCodeJsonl } from './claude-code';
import {
  ccAssistant,
  ccSystem,
  ccToolResult,
  ccUser,
  jsonl,
  text,
  thinking,
  toolUse,
} from './fixtures/claude-code-lines';
import { parseQwenJsonl } from './qwen';

const leavesOf = (input: string) =>
  inspectConversationBranches(parseClaudeCodeJsonl(input).records).branches.map((b) => b.leafUuid);

describe('retried streams', () => {
  it('keeps a finished reply that an API error follows when nothing retried it', () => {
    const input = jsonl(
      ccUser('u1', null, 'Summarise the log'),
      ccAssistant('a1', 'u1', 'msg_1', text('The log shows two restarts.')),
      ccAssistant('x1', 'a1', 'synthetic', text('API Error: 529 overloaded'), { isApiErrorMessage: true }),
    );
    const result = parseClaudeCodeJsonl(input);
    expect(result.alternativeReplies).toBeUndefined();
    expect(inspectConversationBranches(result.records).branches).toMatchObject([
      { leafUuid: 'a1', lastAssistantText: 'The log shows two restarts.' },
    ]);
  });

  it('keeps a second reply written without an API error as a fork', () => {
    expect(
      leavesOf(
        jsonl(
          ccUser('u1', null, 'Name the function'),
          ccAssistant('a1', 'u1', 'msg_1', text('parseConfig')),
          ccAssistant('a2', 'u1', 'msg_2', text('loadConfig')),
        ),
      ),
    ).toEqual(['a1', 'a2']);
  });

  it('drops a thinking-only attempt beside the retry, but not thinking that leads on', () => {
    const input = jsonl(
      ccUser('u1', null, 'Fix the build'),
      ccAssistant('t1', 'u1', 'msg_1', thinking('First try.')),
      ccAssistant('t2', 'u1', 'msg_2', thinking('Second try.')),
      ccAssistant('a2', 't2', 'msg_2', toolUse('toolu_1', 'Bash', { command: 'make' })),
      ccToolResult('r1', 'a2', 'toolu_1', 'ok'),
      ccAssistant('a3', 'r1', 'msg_3', text('Fixed.')),
    );
    const { records } = parseClaudeCodeJsonl(input);
    expect(records.find((r) => r.uuid === 't1')).toMatchObject({
      type: 'system',
      subtype: 'session_artifact_event',
      claudeCode: { neutralBecause: 'thinking-only attempt' },
    });
    expect(records.find((r) => r.uuid === 't2')).toMatchObject({ type: 'assistant' });
    expect(leavesOf(input)).toEqual(['a3']);
  });
});

describe('records written before their parent', () => {
  it('keeps thinking whose continuation was written first', () => {
    const input = jsonl(
      ccUser('u1', null, 'Fix the build'),
      ccAssistant('a2', 't1', 'msg_1', toolUse('toolu_1', 'Bash', { command: 'make' })),
      ccAssistant('t1', 't0', 'msg_1', thinking('Plan, continued.')),
      ccAssistant('t0', 'u1', 'msg_1', thinking('Plan.')),
      ccToolResult('r1', 'a2', 'toolu_1', 'ok'),
      ccAssistant('a3', 'r1', 'msg_2', text('Fixed.')),
    );
    const { records } = parseClaudeCodeJsonl(input);
    expect(records.filter((r) => r.uuid.startsWith('t')).map((r) => r.type)).toEqual([
      'assistant',
      'assistant',
    ]);
    expect(leavesOf(input)).toEqual(['a3']);
  });
});

describe('system records', () => {
  it('keeps a local_command output that answers its command as the leaf', () => {
    expect(
      leavesOf(
        jsonl(
          ccUser('u1', null, 'Hi'),
          ccAssistant('a1', 'u1', 'msg_1', text('Hello.')),
          ccSystem('c1', 'a1', 'local_command', {
            content: '<command-name>/cost</command-name><command-args></command-args>',
          }),
          ccSystem('o1', 'c1', 'local_command', {
            content: '<local-command-stdout>$0.01</local-command-stdout>',
          }),
        ),
      ),
    ).toEqual(['o1']);
  });

  it('keeps a significant system record (a rewind) as a leaf', () => {
    expect(
      leavesOf(
        jsonl(
          ccUser('u1', null, 'Hi'),
          ccAssistant('a1', 'u1', 'msg_1', text('Hello.')),
          ccSystem('w1', 'u1', 'rewind'),
        ),
      ),
    ).toEqual(['a1', 'w1']);
  });
});

describe('trees without a reply', () => {
  it('keeps a lone unanswered prompt when it is the whole file', () => {
    expect(leavesOf(jsonl(ccUser('u1', 'elsewhere', 'Are you there?')))).toEqual(['u1']);
  });

  it('keeps a prompt asked again from a new root after the conversation', () => {
    expect(
      leavesOf(
        jsonl(
          ccUser('u1', null, 'Hi'),
          ccAssistant('a1', 'u1', 'msg_1', text('Hello.')),
          ccUser('u2', null, 'Hi again'),
        ),
      ),
    ).toEqual(['a1', 'u2']);
  });
});

describe('re-appended chains', () => {
  it('does not fold a copy whose timestamp differs, nor one under another parent', () => {
    const u1 = ccUser('u1', null, 'Start');
    const a1 = ccAssistant('a1', 'u1', 'msg_1', text('Started.'));
    const input = jsonl(
      u1,
      a1,
      { ...a1, uuid: 'a1-late', timestamp: '2030-01-01T00:00:00.000Z' },
      ccUser('u2', 'a1', 'Next'),
      { ...a1, uuid: 'a1-below', parentUuid: 'u2' },
      { ...a1, uuid: 'a1-copy' },
    );
    const result = parseClaudeCodeJsonl(input);
    expect(result.foldedDuplicates).toEqual([{ uuid: 'a1-copy', sameAs: 'a1' }]);
    // Not folded, yet the same reply (one message id): one conversation, the line that goes on.
    expect(result.records.map((r) => r.uuid)).toContain('a1-late');
    expect(inspectConversationBranches(result.records).branches.map((b) => b.leafUuid)).toEqual(['a1-below']);
  });

  it('does not fold records under two parents whose uuid and type hold the separator characters', () => {
    // Parent and stamp were once joined into one string key: 'root' and the stamp of type
    // 'k\u0001user' spelled the same key as 'root\u0001k' and the stamp of type 'user'.
    const timestamp = '2025-01-01T00:00:00.000Z';
    const input = jsonl(
      ccUser('root', null, 'Start', { timestamp }),
      ccUser('root\u0001k', null, 'Another start'),
      ccUser('a', 'root', 'Same words', { type: 'k\u0001user', timestamp }),
      ccUser('b', 'root\u0001k', 'Same words', { timestamp }),
    );
    const result = parseClaudeCodeJsonl(input);
    expect(result.foldedDuplicates).toBeUndefined();
    expect(result.records.find((r) => r.uuid === 'b')?.parentUuid).toBe('root\u0001k');
  });
});

describe('Qwen Code keeps the inspector’s own rules', () => {
  it('reads identical records under new uuids as two leaves, and an informational record as significant', () => {
    const line = (fields: Record<string, unknown>) =>
      JSON.stringify({ sessionId: 's', timestamp: '2025-01-01T00:00:00Z', ...fields });
    const reply = { type: 'assistant', message: { role: 'model', parts: [{ text: 'yo' }] } };
    const input = [
      line({
        uuid: 'u1',
        parentUuid: null,
        type: 'user',
        message: { role: 'user', parts: [{ text: 'hi' }] },
      }),
      line({ uuid: 'a1', parentUuid: 'u1', ...reply }),
      line({ uuid: 'a1-copy', parentUuid: 'u1', ...reply }),
      line({ uuid: 'i1', parentUuid: 'u1', type: 'system', subtype: 'informational' }),
    ].join('\n');
    const { branches } = inspectConversationBranches(parseQwenJsonl(input).records);
    expect(branches.map((b) => b.leafUuid)).toEqual(['a1', 'a1-copy', 'i1']);
  });
});
