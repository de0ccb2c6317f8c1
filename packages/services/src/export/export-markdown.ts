// A path, or a whole family, taken out as readable documents (docs/branching.md, "Export").
import { strToU8, zipSync } from 'fflate';
import { graphToMermaid, pathToMarkdown, safeFilename, uniqueFilenames, type MarkdownStep, type Message } from '@trellis/domain';
import type { DbOrTx } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { readPathMessages, withoutReplacedAttempts } from '../branching/path-messages';
import { getFamilyGraph } from '../graph/get-family-graph';
import { loadStepLabels } from '../graph/step-labels';
import { loadLineage } from '../lineage/load-lineage';
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
  const { title, markdown } = await pathMarkdown(deps.db, actor, input.threadId);
  return { filename: safeFilename(title, 'md'), contentType: 'text/markdown; charset=utf-8', body: markdown };
}

/**
 * Every path of the family the graph shows (archived ones left out, as there) as its own Markdown
 * file, plus the family graph as Mermaid, in one zip named after the requested thread's title.
 */
export async function exportFamilyZip(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string },
): Promise<ExportedFile> {
  const graph = await getFamilyGraph(deps, actor, { threadId: input.threadId });
  const paths = graph.threads.filter((thread) => !thread.is_deleted);
  const files: Record<string, Uint8Array> = {};
  // Entries named by the full plain title (no number prefix, no ellipsis), unique within the zip.
  const names = uniqueFilenames([...paths.map((thread) => safeFilename(thread.title, 'md')), 'family-graph.mmd']);
  for (const [i, thread] of paths.entries()) {
    files[names[i] ?? `path-${i + 1}.md`] = strToU8((await pathMarkdown(deps.db, actor, thread.thread_id)).markdown);
  }
  files[names[paths.length] ?? 'family-graph.mmd'] = strToU8(graphToMermaid(graph));
  const requested = graph.threads.find((thread) => thread.thread_id === input.threadId)?.title ?? '';
  return { filename: safeFilename(`${requested} family`, 'zip'), contentType: 'application/zip', body: zipSync(files) };
}

async function pathMarkdown(db: DbOrTx, actor: ThreadActor, threadId: string): Promise<{ title: string; markdown: string }> {
  const { conversation } = await requireThreadAccess(db, actor, threadId, 'read');
  const [lineage, workspace, labelOf] = await Promise.all([
    loadLineage(db, threadId),
    readLiveWorkspace(db, threadId),
    loadStepLabels(db, [threadId]),
  ]);
  // A retried turn reads as its last attempt.
  const messages = withoutReplacedAttempts(await readPathMessages(db, lineage, { from: 1, upTo: conversation.turnIndex }));
  const steps = groupSteps(messages, (turn) => labelOf(threadId, turn));
  return { title: conversation.title, markdown: pathToMarkdown({ title: conversation.title, steps, workspace }) };
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
