'use client';
import type { Message } from '@trellis/domain';
import { useIsHydrated } from '@/lib/use-is-hydrated';
import { KeyRound, RotateCcw, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useMessageActions } from './message-actions';

/** Failures a retry cannot mend until the configuration changes: the notice names what to check instead. */
const CHECK: Partial<Record<NonNullable<Message['reason_code']>, string>> = {
  auth: 'LLM_API_KEY',
  model_not_found: 'LLM_MODEL',
};

/**
 * The one notice of a reply that did not finish: what happened in the provider's words
 * (the stored reason: status, message, the wait it asked for), and one action that fits — "Check
 * LLM_API_KEY" for a refused key, "Retry in 20 s" counting down after a rate limit, else "Retry now".
 * Retry answers the same step again in place (the next attempt; this one stays a page of the reply),
 * and is offered on the path's last step only. Another answer beside this one is the reply's
 * Regenerate action, as on any reply.
 */
export function ReplyNotice({ message, isEarlierAttempt = false }: { message: Message; isEarlierAttempt?: boolean }) {
  const actions = useMessageActions();
  const secondsLeft = useCountdown(message);
  if (message.role !== 'assistant' || message.status === 'complete') return null;
  const turn = message.turn_index;
  const check = message.reason_code === undefined ? undefined : CHECK[message.reason_code];
  // An earlier attempt, paged back to, was retried already: the step's answer is the later one.
  const canRetry = actions?.canChange === true && actions.lastTurn === turn && !isEarlierAttempt;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-2.5 py-1.5 text-xs text-amber-900"
      data-testid="reply-interrupted"
      data-status={message.status}
      data-reason-code={message.reason_code}
    >
      <TriangleAlert aria-hidden className="size-3.5 shrink-0" />
      <span className="min-w-0 flex-1 break-words" data-testid="reply-interrupted-reason">
        {message.status === 'failed' ? 'This reply failed' : 'This reply was interrupted'}
        {message.reason ? `: ${message.reason}.` : '.'}
      </span>
      {check !== undefined ? (
        <span
          className="inline-flex items-center gap-1 rounded border border-amber-400 bg-background px-2 py-1 font-medium"
          data-testid="reply-check"
        >
          <KeyRound aria-hidden className="size-3.5" /> Check <code>{check}</code>
        </span>
      ) : (
        canRetry && (
          <Button
            size="sm"
            variant="outline"
            className="h-7 bg-background"
            data-testid="interrupted-retry"
            disabled={secondsLeft > 0}
            title="Answer this step again in place; this reply stays as an earlier page"
            onClick={() => actions.retry(turn)}
          >
            <RotateCcw /> {secondsLeft > 0 ? `Retry in ${secondsLeft} s` : 'Retry now'}
          </Button>
        )
      )}
    </div>
  );
}

/** Whole seconds until a rate-limited reply's wait is over (0 when there is none, or it passed). */
function useCountdown(message: Message): number {
  const until = message.retry_after_s === undefined ? null : Date.parse(message.created_at) + message.retry_after_s * 1000;
  // The time now is the browser's: a server-rendered transcript counts down once hydrated.
  const isHydrated = useIsHydrated();
  const [now, setNow] = useState(() => Date.now());
  const isWaiting = isHydrated && until !== null && until > now;
  useEffect(() => {
    if (!isWaiting) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [isWaiting]);
  return until === null || !isHydrated ? 0 : Math.max(0, Math.ceil((until - now) / 1000));
}
