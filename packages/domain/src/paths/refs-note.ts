// The line block a referencing message carries to the model: which steps it names and how to read
// them. It is the only way another path enters the model's context, and only through `read_path`.
import type { PathRef } from './contracts';

const HEADER = '[Referenced steps of other paths: read each with the read_path tool, and name its label when you use it]';
const ENTRY = /^- (\S+): thread_id (\S+), turn (\d+)$/;

/** The message the model is asked: the person's text, then the block naming the refs (none: the text alone). */
export function withRefsNote(content: string, refs: readonly PathRef[]): string {
  if (refs.length === 0) return content;
  const lines = refs.map((r) => `- ${r.label}: thread_id ${r.thread_id}, turn ${r.turn}`);
  return `${content}\n\n${HEADER}\n${lines.join('\n')}`;
}

/** The refs a message's block names (the offline model reads them back); none without a block. */
export function refsOfNote(message: string): PathRef[] {
  const at = message.lastIndexOf(HEADER);
  if (at === -1) return [];
  const refs: PathRef[] = [];
  for (const line of message.slice(at + HEADER.length).split('\n')) {
    const match = ENTRY.exec(line.trim());
    if (match) refs.push({ label: match[1]!, thread_id: match[2]!, turn: Number(match[3]) });
  }
  return refs;
}

/** The person's text without the block. */
export function withoutRefsNote(message: string): string {
  const at = message.lastIndexOf(`\n\n${HEADER}`);
  return at === -1 ? message : message.slice(0, at);
}
