'use client';
import type { Message } from '@trellis/domain';
import { RefreshCw, RotateCcw, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useMessageActions } from './message-actions';

/**
 * A reply that did not finish (the user stopped it, the connection closed, the server stopped or
 * crashed during it): says so and why, and offers the two ways on — another answer kept beside this
 * one (Regenerate), or the same question asked again on this path (Retry, on the last step only).
 */
export function InterruptedReply({ message }: { message: Message }) {
  const actions = useMessageActions();
  if (message.role !== 'assistant' || message.status === 'complete') return null;
  const turn = message.turn_index;
  const canAct = actions?.canChange === true;
  const canRetry = canAct && actions.lastTurn === turn;
  return (
    <div
      className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900"
      data-testid="reply-interrupted"
      data-status={message.status}
    >
      <TriangleAlert aria-hidden className="size-3.5 shrink-0" />
      <span className="min-w-0 flex-1" data-testid="reply-interrupted-reason">
        {message.status === 'failed' ? 'This reply failed' : 'This reply was interrupted'}
        {message.reason ? `: ${message.reason}.` : '.'}
      </span>
      {canAct && (
        <Button
          size="sm"
          variant="outline"
          className="h-7 bg-background"
          data-testid="interrupted-regenerate"
          onClick={() => actions.regenerate(turn)}
        >
          <RefreshCw /> Regenerate
        </Button>
      )}
      {canRetry && (
        <Button
          size="sm"
          variant="outline"
          className="h-7 bg-background"
          data-testid="interrupted-retry"
          onClick={() => actions.retry(turn)}
        >
          <RotateCcw /> Retry
        </Button>
      )}
    </div>
  );
}
