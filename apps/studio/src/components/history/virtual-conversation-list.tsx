'use client';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type FocusEvent, type ReactNode, type Ref, type RefObject } from 'react';
import { rowsToMount } from './history-rows';
import type { NestedConversation } from './nest-conversations';

/** Where a mounted row sits; handed to the row so it can place and measure itself. */
export interface VirtualRowPlacement {
  index: number;
  /** Loaded rows, or -1 while older pages may still come (ARIA's "size unknown"). */
  setSize: number;
  top: number;
  measureRef: Ref<HTMLLIElement>;
}

export interface VirtualConversationListProps {
  rows: readonly NestedConversation[];
  /** The element that scrolls; the list must be its first content (no scroll margin is applied). */
  scrollerRef: RefObject<HTMLElement | null>;
  hasMore: boolean;
  selectedThreadId: string | null;
  renderRow: (row: NestedConversation, placement: VirtualRowPlacement) => ReactNode;
}

/** Matches the list's `gap-0.5`. */
const ROW_GAP_PX = 2;
/** Rows mounted beyond each edge of the viewport, so Tab and short scrolls land on a mounted row. */
const OVERSCAN = 8;
/** First guesses before a row is measured: title and meta lines, plus the "branched at" line. */
const ROW_PX = 52;
const BRANCH_ROW_PX = 68;
const ALTERNATIVES_LINE_PX = 22;

/**
 * The active rows of the history menu, virtualised: only the rows near the viewport are in the DOM,
 * each measured once shown (a branch row is taller, a row being renamed may be too). The row that
 * holds focus stays mounted while scrolled away, and a selection made elsewhere (a search hit, the
 * back button) scrolls its row into view as soon as that row is loaded.
 */
export function VirtualConversationList({ rows, scrollerRef, hasMore, selectedThreadId, renderRow }: VirtualConversationListProps) {
  const [focusedThreadId, setFocusedThreadId] = useState<string | null>(null);
  const focusedIndex = focusedThreadId === null ? null : rows.findIndex((r) => r.conversation.thread_id === focusedThreadId);
  const rangeExtractor = useCallback(
    (range: Range) => rowsToMount(defaultRangeExtractor(range), focusedIndex, range.count),
    [focusedIndex],
  );
  const virtualizer = useVirtualizer<HTMLElement, HTMLLIElement>({
    count: rows.length,
    getScrollElement: () => scrollerRef.current,
    estimateSize: (i) =>
      ((rows[i]?.conversation.branch_point_turn ?? null) === null ? ROW_PX : BRANCH_ROW_PX) +
      (rows[i]?.alternatives.length ?? 0) * ALTERNATIVES_LINE_PX,
    getItemKey: (i) => rows[i]?.conversation.thread_id ?? i,
    gap: ROW_GAP_PX,
    overscan: OVERSCAN,
    rangeExtractor,
  });

  const scrolledFor = useRef<string | null>(null);
  useEffect(() => {
    if (selectedThreadId === null) {
      scrolledFor.current = null;
      return;
    }
    if (scrolledFor.current === selectedThreadId) return;
    // A folded regeneration is shown in the row it branched from.
    const index = rows.findIndex(
      (r) =>
        r.conversation.thread_id === selectedThreadId ||
        r.alternatives.some((g) => g.threads.some((t) => t.thread_id === selectedThreadId)),
    );
    if (index < 0) return;
    scrolledFor.current = selectedThreadId;
    virtualizer.scrollToIndex(index, { align: 'auto' });
  }, [selectedThreadId, rows, virtualizer]);

  const onFocus = (event: FocusEvent<HTMLUListElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>('[data-thread-id]');
    setFocusedThreadId(row?.dataset.threadId ?? null);
  };
  const onBlur = (event: FocusEvent<HTMLUListElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) setFocusedThreadId(null);
  };

  const setSize = hasMore ? -1 : rows.length;
  return (
    <ul
      className="relative"
      style={{ height: virtualizer.getTotalSize() }}
      data-testid="conversation-list"
      data-row-count={rows.length}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        return row && renderRow(row, { index: item.index, setSize, top: item.start, measureRef: virtualizer.measureElement });
      })}
    </ul>
  );
}
