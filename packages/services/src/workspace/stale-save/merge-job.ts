// The CPU-bound half of a document save made on a stale base, run in the merge worker
// (run-merge-job.ts): rebuild the base from the live text and the change rows since, merge the
// three texts with the bounded merge of domain, and make the patch of the merged text against the
// live one. Everything here follows the size of the document and of the changes; none of it runs
// on the request thread or under the thread's lock.
import {
  DEFAULT_MERGE_BUDGET,
  deletedTexts,
  makeDocPatch,
  mergeDocumentText,
  revertDocPatch,
  type DocPatch,
  type DocumentBodyAfter,
  type DocumentBodyBefore,
  type MergeBudget,
} from '@trellis/domain';

export interface LiveDocumentText {
  title: string;
  content: string;
  version: number;
}

/** A document change row since the base, as the log stores it. */
export interface DocumentChangeRow {
  kind: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

export interface MergeJob {
  current: LiveDocumentText;
  baseVersion: number;
  /** The document's changes after the base version along the path, newest first. */
  changes: DocumentChangeRow[];
  edit: { title?: string | undefined; content?: string | undefined };
  budget?: MergeBudget;
}

export type MergeOutcome =
  | {
      ok: true;
      title: string;
      content: string;
      /** The body's patch against `current.content` and the texts it deletes (absent: body unchanged). */
      body?: { patch: DocPatch; deleted: string[] };
    }
  | { ok: false; reason: 'overlap' | 'too_complex' | 'no_base' };

export function runMergeJob(job: MergeJob): MergeOutcome {
  const { current, edit } = job;
  const rebuilt = rebuildDocument(current, job.changes, job.baseVersion);
  if (!rebuilt) return { ok: false, reason: 'no_base' };
  let title = current.title;
  if (edit.title !== undefined && edit.title !== rebuilt.title) {
    if (current.title !== rebuilt.title && current.title !== edit.title) return { ok: false, reason: 'overlap' };
    title = edit.title;
  }
  let content = current.content;
  if (edit.content !== undefined) {
    const merged = mergeDocumentText(rebuilt.content, edit.content, current.content, job.budget ?? DEFAULT_MERGE_BUDGET);
    if (!merged.isClean) return { ok: false, reason: merged.reason };
    content = merged.text;
  }
  if (content === current.content) return { ok: true, title, content };
  const patch = makeDocPatch(current.content, content);
  return { ok: true, title, content, body: { patch, deleted: deletedTexts(current.content, patch) } };
}

/**
 * The document as it was at `version`: walks back from the live text over the changes made since
 * (newest first), undoing each patch with the text it deleted. Null when the log cannot rebuild it
 * (a version from before the log, or a patch that does not fit).
 */
export function rebuildDocument(current: LiveDocumentText, changes: readonly DocumentChangeRow[], version: number): LiveDocumentText | null {
  let { title, content } = current;
  let reached = current.version;
  try {
    for (const row of changes) {
      if (row.kind === 'document') {
        const before = row.before as unknown as DocumentBodyBefore;
        const after = row.after as unknown as DocumentBodyAfter;
        content = revertDocPatch(content, after.patch, before.deleted ?? []);
      } else {
        title = typeof row.before.title === 'string' ? row.before.title : '';
      }
      reached = Number(row.before.version);
    }
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  return reached === version ? { title, content, version } : null;
}
