'use client';
import type { Message } from '@trellis/domain';
import { GitMerge } from 'lucide-react';
import { MessageTime } from './message-time';
import { StepTag } from './step-tag';

/**
 * An apply step's transcript entry: a centred provenance line, not a bubble — nobody said it and no
 * model answers it ("Applied from 4.1: section Findings"), with its note below when it has one.
 */
export function ApplyEntry({ message }: { message: Message }) {
  const [line = '', ...rest] = message.content.split('\n');
  const note = message.provenance?.note ?? (rest.join('\n').trim() || null);
  return (
    <div
      className="flex flex-col items-center gap-1 py-1 text-center"
      data-testid="message-system"
      data-kind={message.kind}
      data-turn={message.turn_index}
      data-source-node={message.provenance?.source_node_id}
    >
      <p className="inline-flex max-w-[92%] items-center gap-1.5 break-words text-xs text-muted-foreground" dir="auto">
        <GitMerge aria-hidden className="size-3.5 shrink-0" />
        <span data-testid="message-content">{line}</span>
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
