import { formatFullTime, formatMessageTime } from '@/lib/format-time';

export function MessageTime({ iso }: { iso: string }) {
  return (
    <time
      dateTime={iso}
      title={formatFullTime(iso)}
      data-testid="message-time"
      className="whitespace-nowrap text-[11px] text-muted-foreground"
    >
      {formatMessageTime(iso)}
    </time>
  );
}
