// What one change did, as a marked diff the replay shows: the document's patch walked over
// the text it was made on, or an item's, the title's or the objective's old and new text.
import type { Change } from '../contracts/changes';
import type { DocPatch } from '../changes/doc-patch';
import type { ReplayDiff, ReplayDiffPart } from '../contracts/replay';
import type { WorkspaceState } from '../workspace/snapshot';

/** Unchanged text kept on each side of an edit; the rest of a long document is elided. */
export const DIFF_CONTEXT = 400;

export function changeDiff(
  before: WorkspaceState,
  change: Pick<Change, 'kind' | 'key' | 'op' | 'before' | 'after'>,
): ReplayDiff {
  const old = record(change.before);
  const now = record(change.after);
  switch (change.kind) {
    case 'document':
      if (Array.isArray(now.patch)) {
        return {
          target: 'document',
          summary: 'edited the document',
          parts: patchParts(before.document.content, now.patch as DocPatch),
        };
      }
      return {
        target: 'document',
        summary: 'renamed the document',
        parts: textParts(str(old.title), str(now.title)),
      };
    case 'document_title':
      return {
        target: 'document_title',
        summary: 'renamed the document',
        parts: textParts(str(old.title), str(now.title)),
      };
    case 'objective':
      return {
        target: 'objective',
        summary: 'set the objective',
        parts: textParts(str(old.text), str(now.text)),
      };
    case 'preference':
    case 'todo': {
      const noun = change.kind === 'todo' ? 'to-do' : 'preference';
      const list: { key: string | null; text: string }[] =
        change.kind === 'todo' ? before.todos : before.preferences;
      const current = list.find((item) => item.key !== null && item.key === change.key)?.text ?? '';
      if (change.op === 'create')
        return { target: change.kind, summary: `added a ${noun}`, parts: textParts('', str(now.text)) };
      if (change.op === 'delete')
        return {
          target: change.kind,
          summary: `removed a ${noun}`,
          parts: textParts(str(old.text) || current, ''),
        };
      if (change.op === 'reorder')
        return { target: change.kind, summary: `reordered the ${noun}s`, parts: [] };
      if (typeof now.text === 'string')
        return {
          target: change.kind,
          summary: `edited a ${noun}`,
          parts: textParts(str(old.text), now.text),
        };
      const what =
        typeof now.done === 'boolean'
          ? now.done
            ? 'checked'
            : 'unchecked'
          : typeof now.locked === 'boolean'
            ? now.locked
              ? 'locked'
              : 'unlocked'
            : 'moved';
      return { target: change.kind, summary: `${what} a ${noun}`, parts: [{ kind: 'equal', text: current }] };
    }
    case 'artifact':
      return {
        target: 'artifact',
        summary: change.op === 'create' ? 'created an artifact' : 'updated an artifact',
        parts: textParts(str(old.title), str(now.title)),
      };
  }
}

/** The patch over the text it was made on: kept, deleted and inserted runs, long kept runs cut to their edges. */
export function patchParts(text: string, patch: DocPatch): ReplayDiffPart[] {
  const parts: ReplayDiffPart[] = [];
  let at = 0;
  for (const op of patch) {
    if ('r' in op) {
      parts.push({ kind: 'equal', text: text.slice(at, at + op.r) });
      at += op.r;
    } else if ('d' in op) {
      parts.push({ kind: 'delete', text: text.slice(at, at + op.d) });
      at += op.d;
    } else {
      parts.push({ kind: 'insert', text: op.i });
    }
  }
  if (at < text.length) parts.push({ kind: 'equal', text: text.slice(at) });
  return parts
    .filter((part) => part.text.length > 0)
    .map((part, i, all) => (part.kind === 'equal' ? elide(part, i === 0, i === all.length - 1) : part));
}

function elide(part: ReplayDiffPart, isFirst: boolean, isLast: boolean): ReplayDiffPart {
  const { text } = part;
  if (text.length <= 2 * DIFF_CONTEXT) return part;
  if (isFirst) return { kind: 'equal', text: `…${text.slice(-DIFF_CONTEXT)}` };
  if (isLast) return { kind: 'equal', text: `${text.slice(0, DIFF_CONTEXT)}…` };
  return { kind: 'equal', text: `${text.slice(0, DIFF_CONTEXT)}\n…\n${text.slice(-DIFF_CONTEXT)}` };
}

function textParts(before: string, after: string): ReplayDiffPart[] {
  if (before === after) return before ? [{ kind: 'equal', text: before }] : [];
  return [
    ...(before ? [{ kind: 'delete' as const, text: before }] : []),
    ...(after ? [{ kind: 'insert' as const, text: after }] : []),
  ];
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
