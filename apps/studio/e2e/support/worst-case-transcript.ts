// A 20 MB transcript built to cost the reader as much as an upload may: just under the byte
// limit, with every pattern that once ran slowly — a long single chain of turns with tool calls,
// many records sharing one uuid, unreadable lines, many small leaves, and long texts. Shared by the
// import e2e test and the import bench.
import { MAX_TRANSCRIPT_BYTES } from '@trellis/domain';

const at = (i: number) => new Date(Date.UTC(2025, 2, 1) + i * 1000).toISOString();

function record(uuid: string, parentUuid: string | null, i: number, fields: Record<string, unknown>): string {
  return JSON.stringify({ uuid, parentUuid, sessionId: 'worst-case', timestamp: at(i), ...fields });
}
const user = (uuid: string, parentUuid: string | null, i: number, text: string) =>
  record(uuid, parentUuid, i, { type: 'user', message: { role: 'user', parts: [{ text }] } });
const assistant = (uuid: string, parentUuid: string | null, i: number, parts: unknown[]) =>
  record(uuid, parentUuid, i, { type: 'assistant', message: { role: 'model', parts } });
const toolResult = (uuid: string, parentUuid: string, i: number, id: string) =>
  record(uuid, parentUuid, i, {
    type: 'tool_result',
    message: { role: 'user', parts: [{ functionResponse: { id, name: 'search', response: { output: 'r'.repeat(60) } } }] },
  });

export interface WorstCaseTranscript {
  content: string;
  /** Leaves the inspector reports: the long chain, the shared-uuid record and the small islands. */
  leafCount: number;
}

export function worstCaseTranscript(targetBytes = MAX_TRANSCRIPT_BYTES - 64 * 1024): WorstCaseTranscript {
  const lines: string[] = [];
  let bytes = 0;
  const push = (line: string) => {
    lines.push(line);
    bytes += line.length + 1;
  };
  const room = () => targetBytes - bytes;

  // 1. Unreadable lines: each is a diagnostic (the first 1,000 listed).
  for (let i = 0; i < 20_000; i++) push(`{"uuid":"torn-${i}",`);
  // 2. Many records sharing one uuid: the record index must stay linear.
  for (let i = 0; i < 20_000; i++) push(user('same-uuid', null, i, 'the same uuid again'));
  // 3. Small root islands: one leaf each.
  const islands = 300;
  for (let i = 0; i < islands; i++) push(user(`island-${i}`, null, i, `island prompt ${i}`));
  // 4. Long texts, then 5. one long chain of turns with a tool call each, to the byte limit.
  let parent: string | null = null;
  let n = 0;
  const chainTurn = (textLength: number) => {
    const u = `p${n}`;
    push(user(u, parent, n, `prompt ${n} ${'q'.repeat(textLength)}`));
    push(assistant(`c${n}`, u, n, [{ functionCall: { id: `call-${n}`, name: 'search', args: { q: `query ${n}` } } }]));
    push(toolResult(`t${n}`, `c${n}`, n, `call-${n}`));
    push(assistant(`a${n}`, `t${n}`, n, [{ text: `answer ${n} ${'a'.repeat(textLength)}` }]));
    parent = `a${n}`;
    n++;
  };
  for (let i = 0; i < 40; i++) chainTurn(50_000);
  while (room() > 2_000) chainTurn(40);
  const content = lines.join('\n') + '\n';
  return { content, leafCount: 1 + 1 + islands };
}
