// An apply's `summary` item (docs/branching.md, "Apply"): ONE agent turn on the target whose prompt is
// the source path's steps and what each changed; the reply is filed as the artifact "Summary of path
// 4.1" of that turn. The turn opens with an apply entry (so the graph draws its apply edge from the
// source) and streams like any turn.
import { sql } from 'drizzle-orm';
import { pathSummaryPrompt, type PathSummaryStep } from '@trellis/agent';
import { AppError, applyEntryText, lineageTurnRanges, type ApplyProvenance, type ChangeSummary, type NodeRef } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { requireThreadAccess, type ThreadActor } from '../conversations/conversation-access';
import { loadStepLabels } from '../graph/step-labels';
import { loadLineage } from '../lineage/load-lineage';
import { sendTurn, type TurnStream } from '../turns/send-turn';
import { writeWorkspace } from '../workspace/write-workspace';
import { resolveSource } from './apply-items';

/** The newest steps a summary prompt lists; older ones are counted, not listed. */
export const MAX_SUMMARY_STEPS = 200;

export async function summarizePath(
  deps: Pick<ServiceDeps, 'db' | 'agent' | 'logger'> & Partial<Pick<ServiceDeps, 'gate' | 'instanceId'>>,
  actor: ThreadActor,
  input: { threadId: string; source: NodeRef; note?: string | undefined; signal?: AbortSignal | undefined },
): Promise<TurnStream> {
  const { db } = deps;
  const [{ conversation }, lineage] = await Promise.all([
    requireThreadAccess(db, actor, input.threadId, 'edit'),
    loadLineage(db, input.source.thread_id),
  ]);
  const sourceNodeId = resolveSource(conversation.rootThreadId, lineage, input.source);
  const k = input.source.turn;
  const ranges = lineageTurnRanges(lineage, k);
  const [labelOf, steps] = await Promise.all([
    loadStepLabels(db, [input.threadId]),
    ranges.length === 0
      ? Promise.resolve([])
      : db.execute<{ thread_id: string; turn_index: number; user_message: string | null; changes: ChangeSummary | null }>(sql`
          select * from (
            select s.thread_id, s.turn_index, s.user_message,
              (select jsonb_build_object('words_added', sc.words_added, 'words_removed', sc.words_removed,
                  'items_added', sc.items_added, 'items_removed', sc.items_removed, 'items_edited', sc.items_edited)
                from step_changes sc where sc.thread_id = s.thread_id and sc.turn_index = s.turn_index) as changes
            from jsonb_to_recordset(${JSON.stringify(ranges)}::jsonb) as r(thread_id text, "from" int, "to" int)
            join workspace_snapshots s on s.thread_id = r.thread_id and s.turn_index between greatest(r."from", ${k - MAX_SUMMARY_STEPS + 1}::int) and r."to"
            order by s.turn_index desc limit ${MAX_SUMMARY_STEPS}
          ) newest order by turn_index`),
  ]);
  if (steps.length === 0) {
    throw AppError.validation([{ path: 'source', message: 'the source path has no step to summarise' }], 'Nothing to summarise');
  }
  const label = labelOf(input.source.thread_id, k);
  const provenance: ApplyProvenance = { source_node_id: sourceNodeId, source_label: label, items: ['summary'], note: input.note || null };
  const prompt = pathSummaryPrompt({
    label,
    omitted: Math.max(0, k - steps.length),
    steps: steps.map((step): PathSummaryStep => ({
      label: labelOf(step.thread_id, step.turn_index),
      message: step.user_message,
      changes: step.changes,
    })),
  });
  return sendTurn(deps, actor, {
    threadId: input.threadId,
    content: applyEntryText(provenance),
    signal: input.signal,
    applied: {
      provenance,
      prompt,
      fileReply: async (db, reply) => {
        await writeWorkspace(
          { db },
          {
            threadId: input.threadId,
            author: { actor: 'agent', actorId: null, via: 'apply', viaSource: sourceNodeId },
            edits: [
              {
                kind: 'artifact_create',
                turnIndex: reply.turnIndex,
                artifact: { kind: 'summary', title: `Summary of path ${label}`, content: reply.content },
              },
            ],
          },
        );
      },
    },
  });
}
