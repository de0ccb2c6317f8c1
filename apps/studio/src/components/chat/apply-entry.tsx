'use client';
import type { Message } from '@trellis/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { GitMerge, Undo2 } from 'lucide-react';
import { useParams } from 'next/navigation';
import type { MouseEvent } from 'react';
import { FAMILY_GRAPH_KEY } from '@/components/studio/use-family-graph';
import { applyApi } from '@/lib/api/apply';
import { stepHref } from '@/lib/api/compare';
import { isApiError } from '@/lib/api/http';
import { queryKeys } from '@/lib/api/query-keys';
import { MessageTime } from './message-time';
import { StepTag } from './step-tag';
import { useTrajectoryLinks } from './trajectory-links';

/**
 * An apply step's transcript entry: a centred provenance line, not a bubble — nobody said it and no
 * model answers it ("Applied from 4.1: section Findings, …"). The source label opens the step the
 * items came from; the note follows below; the step label sits beside the time, as on a user message
 * (the entry opens its turn in place of one).
 */
export function ApplyEntry({ message, undoneAt }: { message: Message; undoneAt?: number | undefined }) {
  const links = useTrajectoryLinks();
  const provenance = message.provenance;
  const isUndo = provenance?.undoes !== undefined;
  // Undo writes a step on the path that owns the apply: offered on the displayed path's own steps only
  // (an inherited apply belongs to an ancestor path, which this view must not change).
  const displayed = useParams<{ threadId?: string }>()?.threadId;
  const canUndo =
    provenance !== undefined &&
    !isUndo &&
    undoneAt === undefined &&
    provenance.items[0] !== 'summary' &&
    displayed !== undefined &&
    decodeURIComponent(displayed) === message.thread_id;
  const queryClient = useQueryClient();
  const undo = useMutation({
    mutationFn: () => applyApi.undo(message.thread_id, message.turn_index),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.thread(message.thread_id) }),
        queryClient.invalidateQueries({ queryKey: [FAMILY_GRAPH_KEY] }),
        queryClient.invalidateQueries({ queryKey: queryKeys.conversationList() }),
      ]),
  });
  const [line = '', ...rest] = message.content.split('\n');
  const note = provenance?.note ?? (rest.join('\n').trim() || null);
  const openSource = (event: MouseEvent<HTMLAnchorElement>) => {
    if (provenance === undefined || links?.openStep === undefined) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    links.openStep(provenance.source_node_id);
  };
  return (
    <div
      className="flex flex-col items-center gap-1 py-1 text-center"
      data-testid="message-system"
      data-kind={message.kind}
      data-turn={message.turn_index}
      data-source-node={provenance?.source_node_id}
    >
      <p
        className="inline-flex max-w-full items-start gap-1.5 rounded-2xl border border-dashed bg-muted/40 px-3 py-1 text-xs text-muted-foreground sm:max-w-[85%]"
        dir="auto"
      >
        <GitMerge aria-hidden className="mt-px size-3.5 shrink-0 text-brand" />
        <span data-testid="message-content" className="min-w-0 break-words">
          {provenance === undefined ? (
            line
          ) : (
            <>
              {isUndo ? 'Undid the apply at' : 'Applied from'}{' '}
              <a
                href={stepHref(provenance.source_node_id)}
                onClick={openSource}
                data-testid="apply-entry-source"
                title={isUndo ? `Open step ${provenance.source_label}, the apply this undoes` : `Open step ${provenance.source_label}, where these items came from`}
                className="font-mono font-semibold text-brand underline underline-offset-2 hover:no-underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                {provenance.source_label}
              </a>
              : {provenance.items.length > 0 ? provenance.items.join(', ') : 'nothing'}
            </>
          )}
        </span>
      </p>
      {note && (
        <p className="max-w-[80%] whitespace-pre-wrap break-words text-xs italic text-muted-foreground" dir="auto">
          {note}
        </p>
      )}
      <div className="flex items-center gap-1">
        <MessageTime iso={message.created_at} />
        <StepTag turn={message.turn_index} />
        {canUndo ? (
          <button
            type="button"
            onClick={() => undo.mutate()}
            disabled={undo.isPending || undo.isSuccess}
            data-testid="apply-undo"
            title="A new step that puts every applied item back as it was before this apply"
            className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs text-muted-foreground hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
          >
            <Undo2 aria-hidden className="size-3" /> {undo.isPending ? 'Undoing…' : undo.isSuccess ? 'Undone' : 'Undo'}
          </button>
        ) : null}
        {undoneAt !== undefined && !undo.isSuccess ? (
          <span data-testid="apply-undone" data-undone-at={undoneAt} className="text-xs text-muted-foreground">
            Undone{links?.steps.get(undoneAt) ? ` at step ${links.steps.get(undoneAt)!.label}` : ''}
          </span>
        ) : null}
      </div>
      {undo.error != null ? (
        <p role="alert" data-testid="apply-undo-error" className="max-w-[85%] text-xs text-destructive">
          {isApiError(undo.error) ? undo.error.message : 'The undo failed; try again.'}
        </p>
      ) : null}
    </div>
  );
}
