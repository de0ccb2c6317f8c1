// A small synthetic Claude Code project folder for tests (unit, route, e2e): session one asks,
// starts a subagent through a Task call, and forks at its second prompt; session two resumes it
// from the tokenizer reply; the subagent's run lives in `<session>/subagents/agent-ag1.jsonl`.
// Read as one family it has two paths (the lexer fork and the resumed grammar).
import {
  ccAssistant,
  ccToolResult,
  ccUser,
  jsonl,
  text,
  toolUse,
} from '../readers/fixtures/claude-code-lines';

export interface ProjectFile {
  path: string;
  text: string;
}

const sidechain = { isSidechain: true, agentId: 'ag1' };

export const FIRST_SESSION = jsonl(
  ccUser('u1', null, 'Plan the parser'),
  ccAssistant(
    'a1',
    'u1',
    'msg_1',
    toolUse('toolu_task', 'Task', { description: 'Survey grammars', prompt: 'Find grammar files' }),
  ),
  ccToolResult('r1', 'a1', 'toolu_task', 'Two grammars found', {
    toolUseResult: { agentId: 'ag1', status: 'completed' },
  }),
  ccAssistant('a2', 'r1', 'msg_2', text('There are two grammars.')),
  ccUser('u2', 'a2', 'Write the tokenizer'),
  ccAssistant('a3', 'u2', 'msg_3', text('Tokenizer written.')),
  ccUser('u2b', 'a2', 'Write the lexer instead'),
  ccAssistant('a3b', 'u2b', 'msg_3b', text('Lexer written.')),
);

export const RESUMED_SESSION = jsonl(
  ccUser('u3', 'a3', 'Carry on with the grammar'),
  ccAssistant('a4', 'u3', 'msg_4', text('Grammar done.')),
);

export const SUBAGENT_RUN = jsonl(
  { type: 'fork-context-ref', agentId: 'ag1', parentToolUseId: 'toolu_task' },
  ccUser('s1', null, 'Find grammar files', sidechain),
  ccAssistant('s2', 's1', 'msg_s1', toolUse('toolu_g', 'Grep', { pattern: 'grammar' }), sidechain),
  ccToolResult('s3', 's2', 'toolu_g', 'a.g\nb.g', sidechain),
  ccAssistant('s4', 's3', 'msg_s2', text('Two grammars found'), sidechain),
);

/** The folder's files, under `project/`: the resumed file is listed first on purpose. */
export function projectFolder(): ProjectFile[] {
  return [
    { path: 'project/bbbb-resumed.jsonl', text: RESUMED_SESSION },
    { path: 'project/aaaa-first.jsonl', text: FIRST_SESSION },
    { path: 'project/aaaa-first/subagents/agent-ag1.jsonl', text: SUBAGENT_RUN },
  ];
}
