'use client';
import type { Message } from '@trellis/domain';
import { ArrowDown, ChevronUp } from 'lucide-react';
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { useIsHydrated } from '@/lib/use-is-hydrated';
import type { TurnRun } from '@/lib/turns/turn-store';
import { pendingTurnView } from '@/lib/turns/pending-turn';
import { attemptsByTurn, type AttemptsPage } from './attempts-pager';
import { CheckpointDivider } from './checkpoint-divider';
import { CompactionDivider } from './compaction-divider';
import { HOLD_PLACE_EVENT } from './hold-place';
import { MessageRow } from './message-row';
import { applyKey, undoneApplies } from './undone-applies';
import { StreamingTurn } from './streaming-turn';

export interface MessageListProps {
  threadId: string | null;
  messages: Message[];
  run: TurnRun | undefined;
  hasEarlier: boolean;
  isLoadingEarlier: boolean;
  onLoadEarlier: () => void;
  /** Shown when there is nothing to list. */
  empty: ReactNode;
}

/** Within this distance of the bottom the list follows new content. */
const STICK_PX = 96;

/**
 * Whether the list's latest message (its last row: a message, or the turn in flight) is out of
 * view: "Jump to latest" shows only then, not merely because the list is scrolled a little up.
 */
function isLatestOutOfView(list: HTMLElement): boolean {
  const last = list.firstElementChild?.lastElementChild;
  if (!last) return false;
  const view = list.getBoundingClientRect();
  const row = last.getBoundingClientRect();
  return row.top >= view.bottom || row.bottom <= view.top;
}

/** Each attempt of a retried reply by message id: whether it is the one shown, and its turn's pager. */
function attemptPagesOf(
  attempts: ReadonlyMap<string, Message[]>,
  picked: ReadonlyMap<string, string>,
  pick: (key: string, id: string) => void,
): Map<string, { isShown: boolean; page: AttemptsPage }> {
  const pages = new Map<string, { isShown: boolean; page: AttemptsPage }>();
  for (const [key, list] of attempts) {
    const found = list.findIndex((a) => a.id === picked.get(key));
    const index = found === -1 ? list.length - 1 : found;
    const page: AttemptsPage = {
      index,
      count: list.length,
      select: (i) => {
        const id = list[i]?.id;
        if (id !== undefined) pick(key, id);
      },
    };
    for (const [i, m] of list.entries()) pages.set(m.id, { isShown: i === index, page });
  }
  return pages;
}

/** The transcript, then the turn in flight; follows the stream unless the user scrolled up. */
export function MessageList({
  threadId,
  messages,
  run,
  hasEarlier,
  isLoadingEarlier,
  onLoadEarlier,
  empty,
}: MessageListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const isStuck = useRef(true);
  const isHeld = useRef(false);
  const anchor = useRef<{ firstId: string | undefined; height: number } | null>(null);
  const pending = pendingTurnView(run, messages);
  // A retried reply shows one attempt at a time, the latest unless the person paged back.
  const attempts = useMemo(() => attemptsByTurn(messages), [messages]);
  const [pickedAttempt, setPickedAttempt] = useState<ReadonlyMap<string, string>>(new Map());
  // Built only when the transcript or a pick changes: the rows are memoised, and a new page object
  // each render would re-render every retried reply on every streamed token.
  const attemptPages = useMemo(
    () => attemptPagesOf(attempts, pickedAttempt, (key, id) => setPickedAttempt((before) => new Map(before).set(key, id))),
    [attempts, pickedAttempt],
  );
  const hideTurn = pending.hideTurn;
  const shown = useMemo(
    () => messages.filter((m) => m.turn_index !== hideTurn && attemptPages.get(m.id)?.isShown !== false),
    [messages, hideTurn, attemptPages],
  );
  const firstId = messages[0]?.id;
  const isHydrated = useIsHydrated();

  // Whether the "jump to latest" button shows: the latest message is out of view.
  const [isAway, setAway] = useState(false);

  // A newly opened thread starts at its latest message; so does a message just sent, wherever the
  // list was scrolled: your own message and its reply always come into view.
  const runId = run?.runId;
  useLayoutEffect(() => {
    isStuck.current = true;
    isHeld.current = false;
    setAway(false);
  }, [threadId, runId]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const before = anchor.current;
    if (before && before.firstId !== firstId) {
      // Earlier messages were prepended: keep the same message under the eye.
      el.scrollTop += el.scrollHeight - before.height;
      anchor.current = null;
    } else if (isStuck.current) {
      el.scrollTop = el.scrollHeight;
    }
    // New content while scrolled up may push the latest message out of view (same value: no render).
    setAway(!isStuck.current && isLatestOutOfView(el));
  });

  // A control that placed the scroll on purpose: stay there, even near the bottom, until the person
  // scrolls to the very bottom, sends or opens another thread.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const hold = () => {
      isHeld.current = true;
      isStuck.current = false;
      setAway(isLatestOutOfView(el));
    };
    el.addEventListener(HOLD_PLACE_EVENT, hold);
    return () => el.removeEventListener(HOLD_PLACE_EVENT, hold);
  }, []);

  const loadEarlier = () => {
    const el = scrollRef.current;
    anchor.current = el ? { firstId, height: el.scrollHeight } : null;
    onLoadEarlier();
  };

  const jumpToLatest = () => {
    const el = scrollRef.current;
    if (!el) return;
    isStuck.current = true;
    isHeld.current = false;
    setAway(false);
    el.scrollTo({ top: el.scrollHeight, behavior: 'smooth' });
  };

  // An apply the transcript already shows undone offers no Undo (after a reload as before it).
  const undone = useMemo(() => undoneApplies(shown), [shown]);
  const isEmpty = shown.length === 0 && !pending.showBubbles;
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scrollRef}
        onScroll={(e) => {
          const el = e.currentTarget;
          isStuck.current = el.scrollHeight - el.scrollTop - el.clientHeight < (isHeld.current ? 1 : STICK_PX);
          if (isStuck.current) isHeld.current = false;
          setAway(!isStuck.current && isLatestOutOfView(el));
        }}
        className="min-h-0 flex-1 overflow-y-auto"
        data-testid="message-list"
      >
        {isEmpty ? (
          empty
        ) : (
          <div className="mx-auto flex max-w-3xl flex-col gap-4 px-4 py-4">
            {hasEarlier && (
              <div className="flex justify-center">
                <Button
                  size="sm"
                  variant="ghost"
                  data-testid="load-earlier"
                  // In the page's HTML before its scripts run, a press would be lost: it waits for them.
                  disabled={isLoadingEarlier || !isHydrated}
                  onClick={loadEarlier}
                >
                  <ChevronUp /> {isLoadingEarlier ? 'Loading…' : 'Load earlier messages'}
                </Button>
              </div>
            )}
            {shown.map((message, index) => {
              // Between two turns: the checkpoint after the earlier one (docs/branching.md, "The restore rule").
              const previous = shown[index - 1];
              const isNewTurn = previous !== undefined && previous.turn_index < message.turn_index;
              return (
                <Fragment key={message.id}>
                  {isNewTurn && <CheckpointDivider turn={previous.turn_index} />}
                  {message.compacted_before === true && <CompactionDivider />}
                  <MessageRow
                    message={message}
                    attempts={attemptPages.get(message.id)?.page}
                    undoneAt={undone.get(applyKey(message.thread_id, message.turn_index))}
                  />
                </Fragment>
              );
            })}
            {pending.showBubbles && run && <StreamingTurn run={run} />}
          </div>
        )}
      </div>
      {isAway && !isEmpty && (
        <Button
          size="sm"
          variant="outline"
          className="absolute bottom-2 left-1/2 -translate-x-1/2 rounded-full bg-background shadow-md"
          data-testid="jump-to-latest"
          onClick={jumpToLatest}
        >
          <ArrowDown /> Jump to latest
        </Button>
      )}
    </div>
  );
}
