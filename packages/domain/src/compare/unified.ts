import { createTwoFilesPatch } from 'diff';
import type { Comparison } from './contracts';

const REMOVED_BY = { person: 'by hand', agent: 'by the agent' } as const;

/**
 * `?format=diff`: a plain-text unified diff of the document (rebuilt from the hunks: a side is the
 * concatenation of its equal and own runs), then one line per changed item.
 */
export function comparisonToUnifiedDiff(c: Comparison): string {
  const sideA = c.document.hunks
    .filter((h) => h.op !== 'insert')
    .map((h) => h.text)
    .join('');
  const sideB = c.document.hunks
    .filter((h) => h.op !== 'delete')
    .map((h) => h.text)
    .join('');
  const lines: string[] = [];
  if (c.document.title.changed)
    lines.push(`title: ${JSON.stringify(c.document.title.a)} -> ${JSON.stringify(c.document.title.b)}`);
  if (c.objective.changed)
    lines.push(`objective: ${JSON.stringify(c.objective.a)} -> ${JSON.stringify(c.objective.b)}`);
  const removedAt = (x: { removed_at: { label: string } | null; removed_by: 'person' | 'agent' | null }) =>
    x.removed_at
      ? ` (removed at step ${x.removed_at.label}${x.removed_by ? ` ${REMOVED_BY[x.removed_by]}` : ''})`
      : '';
  const item = (kind: string, status: string, text: string, extra: string) =>
    lines.push(
      `${status === 'added' ? '+' : status === 'removed' ? '-' : '~'} ${kind} ${JSON.stringify(text)}${extra}`,
    );
  for (const p of c.preferences) {
    if (p.status === 'unchanged') continue;
    const side = (p.b ?? p.a)!;
    item(
      'preference',
      p.status,
      side.text,
      p.changes.length ? ` (${p.changes.join(', ')})` : `${side.locked ? ' (locked)' : ''}${removedAt(p)}`,
    );
  }
  for (const t of c.todos) {
    if (t.status === 'unchanged') continue;
    item(
      'todo',
      t.status,
      (t.b ?? t.a)!.text,
      t.changes.length ? ` (${t.changes.join(', ')})` : removedAt(t),
    );
  }
  for (const a of c.artifacts) {
    if (a.status === 'unchanged') continue;
    item('artifact', a.status, (a.b ?? a.a)!.title, '');
  }
  const patch = createTwoFilesPatch(
    `a/${c.a.label}`,
    `b/${c.b.label}`,
    sideA,
    sideB,
    c.a.node_id,
    c.b.node_id,
  );
  return `${patch}${lines.length ? `${lines.join('\n')}\n` : ''}`;
}
