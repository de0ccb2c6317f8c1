// The `read_path` port of one turn: reads only the steps its message referenced, each by the restore
// rule (the same view "Continue from here" shows), bounded by `readPathAnswer`. It remembers what was
// read: the reply's citations, and the documents an agent's write may copy from (`sourceOf`).
import { graphNodeId, readPathAnswer, toPathRef, type PathRef, type ReadPathArgs } from '@trellis/domain';
import { ToolRefusal, type PathsPort } from '@trellis/agent';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { getRestoreView } from '../branching/get-restore-view';
import { withoutReplacedAttempts } from '../branching/path-messages';
import type { ResolvedRef } from './resolve-refs';

/** Copied text shorter than this is not attributed to a source (a word or two is everywhere). */
const MIN_COPIED_CHARS = 12;

export interface TurnPathReader extends PathsPort {
  /** The message's checked references: the only steps it reads (and what the model is told it may read). */
  readonly refs: readonly ResolvedRef[];
  /** The referenced steps read so far, in the order first read: the reply's `citations`. */
  citations(): PathRef[];
  /** The cited step (`{thread_id}:{turn}`) whose document holds `text` verbatim, or null. */
  sourceOf(text: string): string | null;
}

/** The reader of a turn whose message references other paths; none (no `read_path`) when it references nothing. */
export function pathReaderOf(deps: Pick<ServiceDeps, 'db'>, actor: ThreadActor, refs: readonly ResolvedRef[]): TurnPathReader | undefined {
  return refs.length > 0 ? createPathReader(deps, actor, refs) : undefined;
}

export function createPathReader(deps: Pick<ServiceDeps, 'db'>, actor: ThreadActor, refs: readonly ResolvedRef[]): TurnPathReader {
  const read = new Map<string, { ref: PathRef; document: string }>();
  return {
    refs,
    async read(args: ReadPathArgs): Promise<string> {
      const ref = refs.find((r) => r.thread_id === args.thread_id && r.turn === args.turn);
      if (ref === undefined) {
        const listed = refs.map((r) => `${r.label} (thread_id ${r.thread_id}, turn ${r.turn})`).join(', ');
        throw new ToolRefusal(`that step is not referenced in this message; you may read: ${listed}`);
      }
      const view = await getRestoreView(deps, actor, { threadId: ref.thread_id, turn: ref.turn });
      const node = graphNodeId(ref.thread_id, ref.turn);
      // Stored with its line endings normalised once: every document write of the turn searches it.
      if (!read.has(node)) read.set(node, { ref: toPathRef(ref), document: normalizeLineEndings(view.workspace.document.content) });
      const messages = withoutReplacedAttempts(view.messages);
      return readPathAnswer({ ref, title: ref.title, workspace: view.workspace, messages }, args.part);
    },
    citations: () => [...read.values()].map((entry) => entry.ref),
    sourceOf(text: string): string | null {
      const copied = normalizeLineEndings(text).trim();
      if (copied.length < MIN_COPIED_CHARS) return null;
      for (const [node, entry] of read) if (entry.document.includes(copied)) return node;
      return null;
    },
  };
}

function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
