import { describe, expect, it } from 'vitest';
import { inspectConversationBranches } from '../inspect';
import { parseTranscriptJsonl } from '../readers/transcript';
import { ccAssistant, ccSystem, ccUser, jsonl, text } from '../readers/fixtures/claude-code-lines';
import { FIRST_SESSION, RESUMED_SESSION, SUBAGENT_RUN } from '../testing/project-folder';
import { assembleProject } from './assemble-project';

const first = FIRST_SESSION;
const resumed = RESUMED_SESSION;
const run = SUBAGENT_RUN;

describe('assembleProject', () => {
  it('orders a resumed session after the file it continues and reads both as one forest', () => {
    // The resumed file is listed first and has the earlier name: order comes from the link.
    const project = assembleProject([
      { path: 'proj/0-resumed.jsonl', text: resumed },
      { path: 'proj/1-first.jsonl', text: first },
    ]);
    expect(project.sessions.map((s) => [s.path, s.continues])).toEqual([
      ['proj/1-first.jsonl', null],
      ['proj/0-resumed.jsonl', 'proj/1-first.jsonl'],
    ]);
    expect(project.diagnostics).toEqual([]);
    const { records } = parseTranscriptJsonl(project.content);
    const { branches } = inspectConversationBranches(records);
    // One root: the resumed prompt hangs below the first file's tokenizer reply; the lexer is a fork.
    expect(branches.map((b) => b.leafUuid).sort()).toEqual(['a3b', 'a4']);
    expect(new Set(records.filter((r) => r.parentUuid === null).map((r) => r.uuid))).toEqual(new Set(['u1']));
  });

  it('joins a compaction whose logical parent is in another file', () => {
    const compacted = jsonl(
      ccSystem('b1', null, 'compact_boundary', { logicalParentUuid: 'a3' }),
      ccUser('u5', 'b1', 'After the compaction'),
      ccAssistant('a5', 'u5', 'msg_5', text('Still here.')),
    );
    const project = assembleProject([
      { path: 'p/b.jsonl', text: compacted },
      { path: 'p/a.jsonl', text: first },
    ]);
    expect(project.sessions.map((s) => s.continues)).toEqual([null, 'p/a.jsonl']);
    const { records } = parseTranscriptJsonl(project.content);
    expect(records.find((r) => r.uuid === 'b1')?.parentUuid).toBe('a3');
  });

  it('names the record a session continues when no file of the folder holds it', () => {
    const project = assembleProject([
      { path: 'p/x.jsonl', text: jsonl(ccUser('u9', 'gone-record', 'Where were we')) },
    ]);
    expect(project.diagnostics).toEqual([
      { kind: 'missing-continuation', path: 'p/x.jsonl', uuid: 'gone-record' },
    ]);
    expect(project.sessions[0]?.continues).toBeNull();
  });

  it('attaches a subagent file to the Task call that started it, by its fork-context-ref', () => {
    const project = assembleProject([
      { path: 'p/sess.jsonl', text: first },
      { path: 'p/sess/subagents/agent-ag1.jsonl', text: run },
    ]);
    expect(project.subagents).toEqual([
      {
        path: 'p/sess/subagents/agent-ag1.jsonl',
        agentId: 'ag1',
        toolUseId: 'toolu_task',
        description: 'Survey grammars',
        prompt: 'Find grammar files',
        reply: 'Two grammars found',
        tools: ['Grep'],
        recordCount: 4,
      },
    ]);
    // The run's records stay out of the conversation text.
    expect(project.content).not.toContain('"s1"');
  });

  it('finds the starting call by the agentId in the tool result, then by the prompt, else reports the run', () => {
    const withoutRef = run.split('\n').slice(1).join('\n');
    const byAgent = assembleProject([
      { path: 'p/sess.jsonl', text: first },
      { path: 'p/sess/subagents/agent-ag1.jsonl', text: withoutRef },
    ]);
    expect(byAgent.subagents[0]?.toolUseId).toBe('toolu_task');

    const otherAgent = withoutRef.replaceAll('"ag1"', '"ag2"');
    const byPrompt = assembleProject([
      { path: 'p/sess.jsonl', text: first },
      { path: 'p/sess/subagents/agent-ag2.jsonl', text: otherAgent },
    ]);
    expect(byPrompt.subagents[0]).toMatchObject({ agentId: 'ag2', toolUseId: 'toolu_task' });

    const stranger = otherAgent.replaceAll('Find grammar files', 'Something else');
    const lost = assembleProject([
      { path: 'p/sess.jsonl', text: first },
      { path: 'p/sess/subagents/agent-ag2.jsonl', text: stranger },
    ]);
    expect(lost.subagents[0]?.toolUseId).toBeNull();
    expect(lost.diagnostics).toEqual([
      { kind: 'unattached-subagent', path: 'p/sess/subagents/agent-ag2.jsonl', agentId: 'ag2' },
    ]);
  });

  it('ignores folders and files that are not JSONL, and reports them', () => {
    const project = assembleProject([
      { path: 'p/', text: '' },
      { path: 'p/notes.txt', text: 'hello' },
      { path: 'p/empty.jsonl', text: 'not json\n' },
      { path: 'p/s.jsonl', text: first },
    ]);
    expect(project.sessions.map((s) => s.path)).toEqual(['p/s.jsonl']);
    expect(project.diagnostics.map((d) => d.kind)).toEqual(['ignored-entry', 'ignored-entry']);
  });
});
