// A path, or a whole family, taken out as readable documents (docs/branching.md, "Export").
import { Zip, ZipDeflate } from 'fflate';
import { graphToMermaid, pathMarkdownParts, pieceEnd, safeFilename, uniqueFilenames, type MarkdownStep, type Message } from '@trellis/domain';
import type { Db } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { readPathMessages, withoutReplacedAttempts } from '../branching/path-messages';
import { getFamilyGraph } from '../graph/get-family-graph';
import { loadStepLabels } from '../graph/step-labels';
import { loadLineage } from '../lineage/load-lineage';
import { listComments } from '../comments/comments';
import { readDocumentPieces } from '../workspace/read-document-pieces';
import { readLiveWorkspace } from '../workspace/read-live-workspace';

export interface ExportedFile {
  filename: string;
  contentType: string;
  body: string | Uint8Array;
}

/** The displayed path step by step, then its final workspace, as one Markdown file named after its title. */
export async function exportPathMarkdown(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<ExportedFile> {
  const { title, parts } = await pathMarkdown(deps.db, actor, input.threadId);
  return { filename: safeFilename(title, 'md'), contentType: 'text/markdown; charset=utf-8', body: parts.join('') };
}

/** Characters of a path's Markdown given to the zip's deflater at a time (as UTF-8): the event loop is free between slices. */
const SLICE = 64 * 1024;

export interface StreamedFile {
  filename: string;
  contentType: string;
  stream: ReadableStream<Uint8Array>;
}

/**
 * Every path of the family the graph shows (archived ones left out, as there) as its own Markdown
 * file, plus the family graph as Mermaid, in one zip named after the requested thread's title. The
 * zip is built while it streams, like the dataset: one path is read and deflated (in slices) only
 * when the response has taken what came before, so memory follows a path, not the family, and no
 * slice of work holds the event loop for long.
 */
export async function exportFamilyZip(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<StreamedFile> {
  const graph = await getFamilyGraph(deps, actor, { threadId: input.threadId });
  const paths = graph.threads.filter((thread) => !thread.is_deleted);
  // Entries named by the full plain title (no number prefix, no ellipsis), unique within the zip.
  const names = uniqueFilenames([...paths.map((thread) => safeFilename(thread.title, 'md')), 'family-graph.mmd']);
  const requested = graph.threads.find((thread) => thread.thread_id === input.threadId)?.title ?? '';
  async function* entries(): AsyncGenerator<ZipEntry> {
    for (const [i, thread] of paths.entries()) {
      yield { name: names[i] ?? `path-${i + 1}.md`, parts: async () => (await pathMarkdown(deps.db, actor, thread.thread_id)).parts };
    }
    yield { name: names[paths.length] ?? 'family-graph.mmd', parts: async () => [graphToMermaid(graph)] };
  }
  const chunks = zipChunks(entries());
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return { filename: safeFilename(`${requested} family`, 'zip'), contentType: 'application/zip', stream };
}

/** A file of the zip: its text as parts whose concatenation is the file, read only when its turn comes. */
interface ZipEntry {
  name: string;
  parts: () => Promise<readonly string[]>;
}

/** A zip of the entries, each read when the one before has been taken, deflated a slice at a time. */
async function* zipChunks(entries: AsyncIterable<ZipEntry>): AsyncGenerator<Uint8Array, void, undefined> {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else out.push(data);
  });
  const drain = function* (): Generator<Uint8Array> {
    if (failure) throw failure;
    while (out.length > 0) yield out.shift()!;
  };
  for await (const entry of entries) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    zip.add(file);
    for (const bytes of utf8Slices(await entry.parts(), SLICE)) {
      file.push(bytes);
      yield* drain();
      // The deflater keeps most slices to itself (nothing to yield), and a yield to the response is
      // only a promise: other requests get their turn here, after every slice.
      await new Promise((resolve) => setImmediate(resolve));
    }
    file.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}

const utf8 = new TextEncoder();

/**
 * The concatenation of the parts as UTF-8, each part `size` characters at a time (a surrogate pair
 * never split): no part is copied whole into bytes, so a path's Markdown costs the export no second
 * copy of its document.
 */
export function* utf8Slices(parts: Iterable<string>, size: number): Generator<Uint8Array> {
  for (const part of parts) {
    for (let at = 0, end = 0; at < part.length; at = end) {
      end = pieceEnd(part, at, size);
      yield utf8.encode(part.slice(at, end));
    }
  }
}

/**
 * The path's Markdown as parts. Its document is read in pieces (read-document-pieces), never as one
 * string, so a family's zip makes no string of a document's size per path.
 */
async function pathMarkdown(db: Db, actor: ThreadActor, threadId: string): Promise<{ title: string; parts: string[] }> {
  const { conversation } = await requireThreadAccess(db, actor, threadId, 'read');
  const [lineage, workspace, content, labelOf] = await Promise.all([
    loadLineage(db, threadId),
    readLiveWorkspace(db, threadId, { documentContent: false }),
    readDocumentPieces(db, threadId),
    loadStepLabels(db, [threadId]),
  ]);
  // A retried turn reads as its last attempt.
  const messages = withoutReplacedAttempts(await readPathMessages(db, lineage, { from: 1, upTo: conversation.turnIndex }));
  const steps = groupSteps(messages, (turn) => labelOf(threadId, turn));
  const { comments } = await listComments({ db }, actor, { threadId, status: 'open' });
  const document = { title: workspace.document.title, content };
  return { title: conversation.title, parts: pathMarkdownParts({ title: conversation.title, steps, workspace: { ...workspace, document }, comments }) };
}

function groupSteps(messages: readonly Message[], labelOf: (turn: number) => string): MarkdownStep[] {
  const steps: { label: string; turn: number; messages: Message[] }[] = [];
  for (const message of messages) {
    const last = steps.at(-1);
    if (last?.turn === message.turn_index) last.messages.push(message);
    else steps.push({ label: labelOf(message.turn_index), turn: message.turn_index, messages: [message] });
  }
  return steps;
}
