// The authorship report: the displayed path's final document, who wrote how much
// of it (whole and per section), the steps where the agent wrote with the prompts that asked for it,
// and what was applied from other paths — Markdown to paste into an AI-use disclosure.
import { authorshipReport, safeFilename, type ReportStep } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { readPathMessages } from '../branching/path-messages';
import { loadStepLabels } from '../graph/step-labels';
import { loadPathLineage } from '../lineage/load-lineage';
import type { ExportedFile } from '../export/export-markdown';
import { readLiveWorkspace } from '../workspace/read-live-workspace';
import { readAuthorship } from './get-authorship';
import { pathSegments } from '../changes/path-log';

export async function exportAuthorshipReport(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: { threadId: string; now?: Date },
): Promise<ExportedFile> {
  const { db } = deps;
  const { conversation } = await requireThreadAccess(db, actor, input.threadId, 'read');
  const lineage = await loadPathLineage(db, input.threadId);
  const segments = pathSegments(lineage);
  const [{ state }, workspace, messages] = await Promise.all([
    readAuthorship(db, segments, null),
    readLiveWorkspace(db, input.threadId),
    readPathMessages(db, lineage, { from: 1, upTo: conversation.turnIndex }),
  ]);
  const sources = [...new Set(state.spans.flatMap((s) => (s.via !== undefined && s.source ? [s.source] : [])))];
  const sourceThreads = sources.map((source) => source.slice(0, source.lastIndexOf(':')));
  const labelOf = await loadStepLabels(db, [input.threadId, ...sourceThreads]);
  const prompts = new Map<number, string>();
  for (const message of messages) {
    if (message.role === 'user' && !prompts.has(message.turn_index)) prompts.set(message.turn_index, message.content);
  }
  const turns = [...new Set(state.spans.flatMap((s) => (s.via !== 'apply' && s.turn !== null ? [s.turn] : [])))];
  const steps: ReportStep[] = turns.map((turn) => ({
    turn,
    label: `Step ${labelOf(input.threadId, turn)}`,
    prompt: prompts.get(turn) ?? null,
  }));
  const sourceLabels = Object.fromEntries(
    sources.map((source) => {
      const at = source.lastIndexOf(':');
      return [source, `step ${labelOf(source.slice(0, at), Number(source.slice(at + 1)))}`];
    }),
  );
  const title = workspace.document.title || conversation.title;
  const markdown = authorshipReport({
    title,
    pathLabel: `“${conversation.title}” up to step ${labelOf(input.threadId, conversation.turnIndex)}`,
    generatedAt: (input.now ?? new Date()).toISOString().slice(0, 10),
    text: state.text,
    spans: state.spans,
    steps,
    sourceLabels,
  });
  return { filename: safeFilename(`${title} authorship`, 'md'), contentType: 'text/markdown; charset=utf-8', body: markdown };
}
