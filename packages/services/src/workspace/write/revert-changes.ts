// A three-way revert of some of a thread's changes on top of whatever came after them: a retry
// taking back the changes of the attempt it answers again, an undo taking back an apply. Only what
// the reverted changes touched moves: each item they wrote goes back to its state in `before` (the
// snapshot taken before them), the document is reverted change by change with a three-way merge
// (the text after the change, the live text, the text before it), so an edit made since in another
// section stays. A later change to the same item (or words of the document) is either a reason to
// refuse (`onLater: 'refuse'`, nothing is written) or the person's word that wins (`'keep'`).
import { sql } from 'drizzle-orm';
import {
  mergeDocumentText,
  revertDocPatch,
  type ChangeItemKind,
  type DocumentBodyAfter,
  type DocumentBodyBefore,
  type WorkspaceState,
} from '@trellis/domain';
import { readLiveWorkspace } from '../read-live-workspace';
import type { WriteContext } from './context';
import { reconcileState, type TargetState } from './reconcile-state';

export interface RevertEdit {
  kind: 'revert';
  /** The thread's own change seqs to take back. */
  seqs: readonly number[];
  /** The workspace before the first of them (snapshot k of their step). */
  before: WorkspaceState;
  onLater: 'refuse' | 'keep';
  /** Marks what was taken back `reverted` (a retry's attempt stays in the log, marked). */
  mark: boolean;
  /** Only says what it would do: writes nothing. */
  dryRun?: boolean;
}

/** A change after the reverted ones to something they wrote. */
export interface LaterChange {
  seq: number;
  turn: number;
  kind: ChangeItemKind;
  key: string | null;
  actor: string;
}

export interface RevertOutcome {
  /** What was put back, in words ("the document", "3 todos"). */
  restored: string[];
  /** What stayed as it is, in words, with why. */
  kept: string[];
  /** With `onLater: 'refuse'`: the later changes in the way (then nothing was written). */
  blocked: LaterChange[];
}

interface RevertedRow {
  seq: number;
  kind: ChangeItemKind;
  key: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export async function revertChanges(ctx: WriteContext, edit: RevertEdit): Promise<RevertOutcome> {
  const outcome: RevertOutcome = { restored: [], kept: [], blocked: [] };
  if (edit.seqs.length === 0) return outcome;
  const seqList = sql.join(
    edit.seqs.map((seq) => sql`${seq}`),
    sql`, `,
  );
  const rows = await ctx.tx.execute<RevertedRow & Record<string, unknown>>(sql`
    select seq, kind, key, before, after from workspace_changes
    where thread_id = ${ctx.threadId} and seq in (${seqList}) order by seq`);
  if (rows.length === 0) return outcome;
  const first = rows[0]!.seq;
  const keys = [...new Set(rows.flatMap((r) => (r.key === null ? [] : [r.key])))];
  const later = await ctx.tx.execute<LaterChange & Record<string, unknown>>(sql`
    select seq, turn, kind, key, actor from workspace_changes
    where thread_id = ${ctx.threadId} and seq > ${first} and seq not in (${seqList})
      and (${keys.length > 0 ? sql`key in (${sql.join(keys.map((k) => sql`${k}`), sql`, `)})` : sql`false`}
        or kind in ('document', 'document_title', 'objective'))
    order by seq`);
  const has = (kind: ChangeItemKind) => rows.some((r) => r.kind === kind);
  const laterOf = (kind: ChangeItemKind, key: string | null = null) =>
    later.filter((c) => c.kind === kind && (key === null || c.key === key));

  const taken: number[] = [];
  const target: TargetState = {};
  const live = await readLiveWorkspace(ctx.tx, ctx.threadId, { artifactContent: false });

  if (has('objective')) {
    const after = laterOf('objective');
    if (after.length > 0) {
      outcome.blocked.push(...after);
      outcome.kept.push('the objective (changed since)');
    } else {
      target.objective = edit.before.objective;
      taken.push(...rows.filter((r) => r.kind === 'objective').map((r) => r.seq));
      outcome.restored.push('objective');
    }
  }

  let title = live.document.title;
  let content = live.document.content;
  if (has('document_title')) {
    const after = laterOf('document_title');
    if (after.length > 0) {
      outcome.blocked.push(...after);
      outcome.kept.push('the document title (changed since)');
    } else {
      title = edit.before.document.title;
      taken.push(...rows.filter((r) => r.kind === 'document_title').map((r) => r.seq));
    }
  }
  const bodies = rows.filter((r) => r.kind === 'document');
  if (bodies.length > 0) {
    const texts = await textsSince(ctx, live.document, Math.min(...bodies.map((r) => Number(r.before?.['version']))));
    let clean = true;
    for (const change of [...bodies].reverse()) {
      const afterIt = texts.get(Number(change.after?.['version']));
      const beforeIt = texts.get(Number(change.before?.['version']));
      const merged = afterIt === undefined || beforeIt === undefined ? null : mergeDocumentText(afterIt, content, beforeIt);
      if (merged?.isClean) {
        content = merged.text;
        taken.push(change.seq);
      } else {
        clean = false;
      }
    }
    if (!clean) {
      if (edit.onLater === 'refuse') outcome.blocked.push(...laterOf('document'));
      outcome.kept.push('the document text changed since where it overlaps');
    }
  }
  if (title !== live.document.title || content !== live.document.content) {
    target.document = { title, content };
    outcome.restored.push('document');
  }

  for (const kind of ['preference', 'todo'] as const) {
    const mine = rows.filter((r) => r.kind === kind && r.key !== null);
    if (mine.length === 0) continue;
    const touched = new Set(mine.map((r) => r.key!));
    const changedSince = new Set(laterOf(kind).flatMap((c) => (c.key !== null && touched.has(c.key) ? [c.key] : [])));
    if (changedSince.size > 0) {
      outcome.blocked.push(...laterOf(kind).filter((c) => c.key !== null && touched.has(c.key)));
      outcome.kept.push(`${count(changedSince.size, kind)} (changed since)`);
    }
    const back = new Set([...touched].filter((key) => !changedSince.has(key)));
    if (back.size === 0) continue;
    const wasBefore = new Map(
      (kind === 'preference' ? edit.before.preferences : edit.before.todos).flatMap((item) => (item.key === null ? [] : [[item.key, item] as const])),
    );
    const now = kind === 'preference' ? live.preferences : live.todos;
    // The live list with each item put back as it was (or left out when the reverted changes added it)…
    const list: Record<string, unknown>[] = now.flatMap((item) => {
      if (item.key === null || !back.has(item.key)) return [item];
      const old = wasBefore.get(item.key);
      return old ? [{ ...item, ...old }] : [];
    });
    // …and the items they removed brought back.
    for (const [key, old] of wasBefore) if (back.has(key) && !now.some((item) => item.key === key)) list.push({ ...old });
    if (kind === 'preference') {
      target.preferences = list.map((p) => ({ key: p['key'] as string | null, text: String(p['text']), locked: Boolean(p['locked']) }));
    } else {
      target.todos = list.map((t) => ({ key: t['key'] as string | null, text: String(t['text']), done: Boolean(t['done']), depth: Number(t['depth'] ?? 0) }));
    }
    taken.push(...mine.filter((r) => back.has(r.key!)).map((r) => r.seq));
    outcome.restored.push(count(back.size, kind));
  }
  const artifacts = new Set(rows.filter((r) => r.kind === 'artifact').map((r) => r.key));
  if (artifacts.size > 0) outcome.kept.push(`${count(artifacts.size, 'artifact')} (artifacts are never deleted)`);

  if (edit.onLater === 'refuse' && outcome.blocked.length > 0) return outcome;
  outcome.blocked = [];
  if (edit.dryRun) return outcome;
  await reconcileState(ctx, target, { removeMissing: true, turnIndex: 0 });
  if (edit.mark && taken.length > 0) {
    await ctx.tx.execute(sql`
      update workspace_changes set reverted = true
      where thread_id = ${ctx.threadId} and seq in (${sql.join(taken.map((seq) => sql`${seq}`), sql`, `)})`);
  }
  return outcome;
}

function count(n: number, kind: string): string {
  return `${n} ${kind}${n === 1 ? '' : 's'}`;
}

/**
 * The document's text at every version from `version` to the live one: walks back from the live
 * text over this thread's document changes since (newest first), undoing each patch with the text
 * it deleted. The reverted changes are this thread's, so every later version is too.
 */
async function textsSince(ctx: WriteContext, current: { content: string; version: number }, version: number): Promise<Map<number, string>> {
  const texts = new Map<number, string>([[current.version, current.content]]);
  const rows = await ctx.tx.execute<{ kind: string; before: Record<string, unknown>; after: Record<string, unknown> }>(sql`
    select kind, before, after from workspace_changes
    where thread_id = ${ctx.threadId} and kind in ('document', 'document_title') and (after->>'version')::int > ${version}
    order by seq desc`);
  let content = current.content;
  try {
    for (const row of rows) {
      if (row.kind === 'document') {
        const before = row.before as unknown as DocumentBodyBefore;
        const after = row.after as unknown as DocumentBodyAfter;
        content = revertDocPatch(content, after.patch, before.deleted ?? []);
      }
      texts.set(Number(row.before['version']), content);
    }
  } catch (error) {
    // A log that cannot be walked back: the versions past the break are unknown, and stay out.
    if (!(error instanceof RangeError)) throw error;
  }
  return texts;
}
