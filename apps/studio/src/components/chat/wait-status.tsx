'use client';
import type { TurnStatus } from '@trellis/domain';
import { Hourglass } from 'lucide-react';
import { useEffect, useState } from 'react';

/**
 * What a streaming reply is waiting for (the turn's `status` events): "waiting for the
 * model…" after a silence, "rate limited — retrying in 12 s" (counting down) while the provider's
 * Retry-After runs, "the provider failed — retrying in 2 s" after a 5xx or a lost connection.
 */
export function WaitStatus({ status, since }: { status: TurnStatus; since: number }) {
  const [now, setNow] = useState(() => Date.now());
  const hasCountdown = status.retry_in_s !== undefined;
  useEffect(() => {
    if (!hasCountdown) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [hasCountdown]);
  const left = status.retry_in_s === undefined ? 0 : Math.max(0, Math.ceil(status.retry_in_s - (now - since) / 1000));
  const text =
    status.state === 'waiting'
      ? 'waiting for the model…'
      : `${status.state === 'rate_limited' ? 'rate limited' : 'the provider failed'} — ${left > 0 ? `retrying in ${left} s` : 'retrying now'}`;
  return (
    <p
      className="flex items-center gap-1.5 text-xs text-muted-foreground"
      role="status"
      data-testid="turn-wait-status"
      data-state={status.state}
      title={status.reason}
    >
      <Hourglass aria-hidden className="size-3.5 shrink-0" />
      <span>{text}</span>
    </p>
  );
}
