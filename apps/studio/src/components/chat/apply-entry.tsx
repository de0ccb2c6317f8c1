'use client';
import type { Message } from '@trellis/domain';
import { GitMerge } from 'lucide-react';
import type { MouseEvent } from 'react';
import { stepHref } from '@/lib/api/compare';
import { MessageTime } from './message-time';
import { StepTag } from './step-tag';
import { useTrajectoryLinks } from './trajectory-links';

/**
 * An apply step's transcript entry: a centred provenance line, not a bubble — nobody said it and no
 * model answers it ("Applied from 4.1: section Findings, …"). The source label opens the step the
 * items came from; the note follows below; the step label sits beside the time, as on a user message
 * (the entry opens its turn in place of one).
 */
export function ApplyEntry({ message }: { message: Message }) {
  const links = useTrajectoryLinks();
  const provenance = message.provenance;
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
              Applied from{' '}
              <a
                href={stepHref(provenance.source_node_id)}
                onClick={openSource}
                data-testid="apply-entry-source"
                title={`Open step ${provenance.source_label}, where these items came from`}
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
      </div>
    </div>
  );
}
