'use client';
import { SendHorizontal, Square } from 'lucide-react';
import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';

export interface ComposerProps {
  draft: string;
  onDraftChange: (draft: string) => void;
  onSend: (content: string) => void;
  onStop: () => void;
  isRunning: boolean;
  isDisabled?: boolean;
  placeholder?: string;
}

const MAX_HEIGHT_PX = 220;

/**
 * Enter sends, Shift+Enter starts a new line. While a turn runs, sending is
 * off and Stop takes Send's place; typing the next message stays possible.
 */
export function Composer({
  draft,
  onDraftChange,
  onSend,
  onStop,
  isRunning,
  isDisabled = false,
  placeholder,
}: ComposerProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const canSend = !isRunning && !isDisabled && draft.trim().length > 0;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [draft]);

  const send = () => {
    if (canSend) onSend(draft);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <div>
      <form
        className="flex items-end gap-2 rounded-xl border bg-card p-2 shadow-xs focus-within:ring-2 focus-within:ring-ring/50"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <textarea
          ref={ref}
          rows={1}
          value={draft}
          disabled={isDisabled}
          onChange={(e) => onDraftChange(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={placeholder ?? 'Message the agent…'}
          aria-describedby="composer-hint"
          aria-label="Message"
          data-testid="chat-input"
          data-running={isRunning}
          className="max-h-[220px] min-h-9 flex-1 resize-none bg-transparent px-2 py-1.5 text-sm placeholder:text-muted-foreground focus:outline-none disabled:opacity-50"
        />
        {isRunning ? (
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
            disabled={!canSend}
          >
            <SendHorizontal />
          </Button>
        )}
      </form>
      <p id="composer-hint" className="mt-1 hidden px-1 text-[11px] text-muted-foreground md:block">
        Enter to send · Shift+Enter for a new line{isRunning ? ' · the agent is replying' : ''}
      </p>
    </div>
  );
}
