'use client';
import { MAX_MESSAGE_CHARS } from '@trellis/domain';
import { AtSign, SendHorizontal, Square, X } from 'lucide-react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useFamilyGraph } from '@/components/studio/use-family-graph';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatCount, isTooLong, lengthNotice, tooLongMessage } from './message-length';
import { mentionAt, optionId, PathPicker, pickerOptions, PICKER_ID, type PickedRef, type PickerOption } from './path-picker';
import { isSendKey, SEND_KEY_HINT } from './send-key';

export interface ComposerProps {
  draft: string;
  onDraftChange: (draft: string) => void;
  /** Resolves once the message was handed to a turn (true) or refused before that (false). */
  onSend: (content: string) => Promise<boolean>;
  /** The displayed thread: `@` lists the other paths of its family. */
  threadId?: string | null;
  /** Steps of other paths this message brings in (chips above the field). */
  refs?: readonly PickedRef[];
  onRefsChange?: (refs: PickedRef[]) => void;
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
  threadId = null,
  refs = [],
  onRefsChange,
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

  // The `@` picker: open while the caret stands in an `@word`; the textarea keeps the focus.
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const mention = onRefsChange === undefined ? null : mentionAt(draft, caret);
  const isPickerOpen = mention !== null && dismissedAt !== mention.start && !isDisabled;
  const { graph } = useFamilyGraph(isPickerOpen ? threadId : null);
  const options = useMemo(
    () => (isPickerOpen ? pickerOptions(graph, threadId, mention.query).filter((o) => !refs.some((r) => r.thread_id === o.thread_id && r.turn === o.turn)) : []),
    [isPickerOpen, graph, threadId, mention?.query, refs],
  );
  const activeIndex = Math.min(active, Math.max(options.length - 1, 0));
  const pick = (option: PickerOption) => {
    if (mention === null || onRefsChange === undefined) return;
    const { thread_id, turn, label, title } = option;
    onRefsChange([...refs, { thread_id, turn, label, title }]);
    const next = `${draft.slice(0, mention.start)}${draft.slice(caret)}`;
    onDraftChange(next);
    setActive(0);
    requestAnimationFrame(() => {
      ref.current?.setSelectionRange(mention.start, mention.start);
      setCaret(mention.start);
    });
  };

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
    if (isPickerOpen && !event.nativeEvent.isComposing) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        if (options.length > 0) setActive((activeIndex + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && options[activeIndex]) {
        event.preventDefault();
        pick(options[activeIndex]);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        setDismissedAt(mention.start);
        return;
      }
    }
    if (isSendKey(event)) {
      event.preventDefault();
      send();
    }
  };

  const notice = lengthNotice(length);
  const problem = tooLong ?? refusal;
  return (
    <div className="relative">
      {isPickerOpen && <PathPicker options={options} active={activeIndex} onPick={pick} onHover={setActive} />}
      {refs.length > 0 && (
        <ul className="mb-1.5 flex flex-wrap gap-1" aria-label="Steps this message brings in" data-testid="composer-refs">
          {refs.map((r) => (
            <li
              key={`${r.thread_id}:${r.turn}`}
              className="inline-flex items-center gap-1 rounded-full border bg-card py-0.5 pl-2 pr-0.5 text-xs"
              data-testid="composer-ref"
              data-node={`${r.thread_id}:${r.turn}`}
              title={r.title}
            >
              <AtSign aria-hidden className="size-3 text-muted-foreground" />
              <span className="font-mono font-semibold">{r.label}</span>
              <span className="max-w-40 truncate text-muted-foreground">{r.title}</span>
              <button
                type="button"
                className="rounded-full p-0.5 hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                aria-label={`Remove the reference to ${r.label}`}
                onClick={() => onRefsChange?.(refs.filter((x) => x !== r))}
              >
                <X aria-hidden className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      )}
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
          onChange={(e) => {
            onDraftChange(e.target.value);
            setCaret(e.target.selectionStart);
            setActive(0);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          aria-controls={isPickerOpen && options.length > 0 ? PICKER_ID : undefined}
          aria-activedescendant={isPickerOpen && options.length > 0 ? optionId(activeIndex) : undefined}
          aria-autocomplete={onRefsChange === undefined ? undefined : 'list'}
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
        {SEND_KEY_HINT}{onRefsChange === undefined ? '' : ' · @ to bring in another path'}
        {isRunning ? ' · the agent is replying' : ''}
      </p>
    </div>
  );
}
