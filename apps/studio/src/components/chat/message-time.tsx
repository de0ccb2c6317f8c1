'use client';
import { formatFullTime, formatMessageTime } from '@/lib/format-time';
import { useIsHydrated } from '@/lib/use-is-hydrated';

/** A message's time in the viewer's locale and zone, once the page has hydrated (useIsHydrated). */
export function MessageTime({ iso }: { iso: string }) {
  const isHydrated = useIsHydrated();
  return (
    <time
      dateTime={iso}
      title={isHydrated ? formatFullTime(iso) : undefined}
      data-testid="message-time"
      className="whitespace-nowrap text-[11px] text-muted-foreground"
    >
      {isHydrated ? formatMessageTime(iso) : ''}
    </time>
  );
}
