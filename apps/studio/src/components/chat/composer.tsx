'use client';
import { MAX_MESSAGE_CHARS } from '@trellis/domain';
import { SendHorizontal, Square } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatCount, isTooLong, lengthNotice, tooLongMessage } from './message-length';
import { isSendKey, SEND_KEY_HINT } from './send-key';

export interface ComposerProps {
  draft: string;
  onDraftChange: (draft: string) => void;
  /** Resolves once the message was handed to a turn (true) or refused before that (false). */
  onSend: (content: string) => Promise<boolean>;
  onStop: () => void;
  isRunning: boolean;
  isDisabled?: boolean;
  placeholder?: string;
  /** Why the last send was refused, shown under the field until the draft changes. */
  refusal?: string | null;
}

const MAX_HEIGHT_PX = 220;

/** The message field's id: the trajectory's skip link points here. */
export const COMPOSER_ID = 'composer';

/**
 * After a press on Send, Stop (which takes Send's place while a turn runs) stays away for this long,
 * so the second click of a double-click cannot stop the turn the first one started.
 */
const STOP_GUARD_MS = 500;

/**
 * Enter sends, Shift+Enter starts a new line. One send per press: from the press until the turn has
 * been handed over, Send is disabled and a second press does nothing. While a turn runs, Stop takes
 * Send's place (after a short guard); typing the next message stays possible. The server's length
 * limit is checked as the draft is typed: over it, Send is disabled and the composer says by how
 * much, before anything is sent; the draft stays.
 */
export function Composer({
  draft,
  onDraftChange,
  onSend,
  onStop,
  isRunning,
  isDisabled = false,
  placeholder,
  refusal = null,
}: ComposerProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  // A ref as well as state: two presses in one frame must not both pass the check.
  const isSubmitting = useRef(false);
  const [isSending, setSending] = useState(false);
  const [isStopGuarded, setStopGuarded] = useState(false);
  const length = draft.trim().length;
  const tooLong = isTooLong(draft) ? tooLongMessage(length) : null;
  const canSend = !isRunning && !isDisabled && !isSending && length > 0 && tooLong === null;
  const showStop = isRunning && !isStopGuarded;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [draft]);

  useEffect(() => {
    if (!isStopGuarded) return;
    const timer = setTimeout(() => setStopGuarded(false), STOP_GUARD_MS);
    return () => clearTimeout(timer);
  }, [isStopGuarded]);

  const send = () => {
    if (!canSend || isSubmitting.current) return;
    isSubmitting.current = true;
    setSending(true);
    setStopGuarded(true);
    void onSend(draft).finally(() => {
      isSubmitting.current = false;
      setSending(false);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isSendKey(event)) {
      event.preventDefault();
      send();
    }
  };

  const notice = lengthNotice(length);
  const problem = tooLong ?? refusal;
  return (
    <div>
      <form
        className={cn(
          'flex items-end gap-2 rounded-xl border bg-card p-2 shadow-xs focus-within:ring-2 focus-within:ring-ring/50',
          problem !== null && 'border-destructive/60',
        )}
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <textarea
          ref={ref}
          id={COMPOSER_ID}
          rows={1}
          dir="auto"
          value={draft}
          disabled={isDisabled}
          onChange={(e) => onDraftChange(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={placeholder ?? 'Message the agent…'}
          aria-describedby="composer-hint composer-problem"
          aria-invalid={problem !== null || undefined}
          aria-label="Message"
          data-testid="chat-input"
          data-running={isRunning}
          className="max-h-[220px] min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm placeholder:text-muted-foreground focus:outline-none disabled:opacity-50"
        />
        {showStop ? (
          <Button
            type="button"
            variant="outline"
            size="icon"
            aria-label="Stop"
            title="Stop the reply"
            data-testid="stop"
            onClick={onStop}
          >
            <Square className="fill-current" />
          </Button>
        ) : (
          <Button
            type="submit"
            size="icon"
            aria-label="Send"
            title="Send (Enter)"
            data-testid="send"
            data-sending={isSending || undefined}
            disabled={!canSend}
          >
            <SendHorizontal />
          </Button>
        )}
      </form>
      <div className="mt-1 flex items-start gap-2 px-1 text-[11px]">
        <p
          id="composer-problem"
          role="alert"
          className="min-w-0 flex-1 text-destructive"
          data-testid="composer-problem"
        >
          {problem}
        </p>
        {notice !== null && (
          <p
            className={cn(
              'shrink-0 tabular-nums',
              notice.isOver ? 'font-medium text-destructive' : 'text-muted-foreground',
            )}
            data-testid="composer-count"
            aria-live="polite"
          >
            {formatCount(length)} / {formatCount(MAX_MESSAGE_CHARS)}
          </p>
        )}
      </div>
      <p id="composer-hint" className="hidden px-1 text-[11px] text-muted-foreground md:block">
        {SEND_KEY_HINT}{isRunning ? ' · the agent is replying' : ''}
      </p>
    </div>
  );
}
