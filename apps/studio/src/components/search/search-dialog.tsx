'use client';
import { useQuery } from '@tanstack/react-query';
import { snippetParts, type SearchHit, type SearchHitKind } from '@trellis/domain';
import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { conversationsApi } from '@/lib/api/conversations';
import { errorMessage } from '@/lib/api/http';
import { cn } from '@/lib/cn';

const KIND_LABELS: Record<SearchHitKind, string> = {
  message: 'Message',
  reply: 'Reply',
  document: 'Document',
  preference: 'Preference',
  todo: 'Todo',
};

export interface SearchDialogProps {
  /**
   * Opens a hit: its step in the restore view (nothing is created), or — `step` null — its path
   * live, when the hit is on the path's latest step, so the next message continues that path.
   */
  onOpenStep: (threadId: string, step: number | null) => void;
}

/** "Step 4" or, for a passage several versions share, "Steps 4–9". */
export function hitSteps(hit: Pick<SearchHit, 'label' | 'first_label'>): string {
  return hit.first_label === hit.label ? `Step ${hit.label}` : `Steps ${hit.first_label}–${hit.label}`;
}

/**
 * Search across every path (Ctrl/Cmd+K). The hits are a listbox driven from the search box
 * (`aria-activedescendant`): ↑/↓ move, Enter opens, Escape closes. Each hit names its step(s) and
 * its path, with the matched words marked.
 */
export function SearchDialog({ onOpenStep }: SearchDialogProps) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(text.trim()), 200);
    return () => clearTimeout(timer);
  }, [text]);

  const results = useQuery({
    queryKey: ['search', query],
    queryFn: ({ signal }) => conversationsApi.search(query, signal),
    enabled: open && query !== '',
    staleTime: 10_000,
  });
  const hits = query === '' ? [] : (results.data?.hits ?? []);

  // A new list of hits starts at its first.
  useEffect(() => setActive(0), [results.data]);
  // The active hit stays in view as ↑/↓ move through a list longer than the dialog.
  useEffect(() => {
    list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  // Every opening starts from an empty box.
  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setText('');
      setQuery('');
      setActive(0);
    }
  };

  const openHit = (hit: SearchHit) => {
    changeOpen(false);
    onOpenStep(hit.thread_id, hit.is_latest_step ? null : hit.turn_index);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (hits.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (Math.min(i, hits.length - 1) + step + hits.length) % hits.length);
    } else if (event.key === 'Enter') {
      const hit = hits[Math.min(active, hits.length - 1)];
      if (hit !== undefined) {
        event.preventDefault();
        openHit(hit);
      }
    }
  };

  const activeIndex = Math.min(active, hits.length - 1);
  const optionId = (i: number) => `${listId}-hit-${i}`;
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="px-2 md:px-3"
        data-testid="search-open"
        title="Search every path (Ctrl+K)"
        onClick={() => setOpen(true)}
      >
        <Search aria-hidden /> <span className="hidden md:inline">Search</span>
        <kbd className="hidden rounded border px-1 text-[10px] text-muted-foreground lg:inline">Ctrl K</kbd>
      </Button>
      <Dialog open={open} onOpenChange={changeOpen}>
        <DialogContent data-testid="search-dialog" className="max-w-xl">
          <DialogTitle>Search</DialogTitle>
          <DialogDescription>
            Messages, replies, document versions, preferences and todos of every path. ↑ and ↓ move through the hits,
            Enter opens one.
          </DialogDescription>
          <input
            autoFocus
            type="search"
            role="combobox"
            aria-expanded={hits.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={hits.length > 0 ? optionId(activeIndex) : undefined}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onKeyDown}
            aria-label="Search your conversations"
            placeholder="swarming, “exact phrase”, -excluded"
            data-testid="search-input"
            className="w-full rounded-md border bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
          <div className="max-h-[60vh] min-h-16 overflow-y-auto">
            <p className="sr-only" aria-live="polite">
              {query === '' || results.data === undefined
                ? ''
                : `${results.data.hits.length === 0 ? 'No' : results.data.hits.length}${results.data.next_page === null ? '' : '+'} hits`}
            </p>
            {query === '' ? null : results.isError ? (
              <p role="alert" className="text-sm text-destructive">
                Search failed: {errorMessage(results.error)}
              </p>
            ) : results.data === undefined ? (
              <p className="text-sm text-muted-foreground">Searching…</p>
            ) : null}
            {query !== '' && results.data !== undefined && results.data.hits.length === 0 && (
              <p className="text-sm text-muted-foreground" data-testid="search-empty">
                Nothing found.
              </p>
            )}
            <ul
              ref={list}
              id={listId}
              role="listbox"
              aria-label="Search results"
              className={cn('space-y-1', hits.length === 0 && 'hidden')}
              data-testid="search-hits"
            >
              {hits.map((hit, i) => (
                <li
                  key={`${hit.thread_id}:${hit.turn_index}:${hit.kind}:${hit.snippet}`}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === activeIndex}
                  data-index={i}
                  data-testid="search-hit"
                  data-thread-id={hit.thread_id}
                  data-turn-index={hit.turn_index}
                  data-latest={hit.is_latest_step}
                  onClick={() => openHit(hit)}
                  onMouseMove={() => i !== activeIndex && setActive(i)}
                  className={cn(
                    'cursor-pointer rounded-md px-3 py-2 text-left text-sm',
                    i === activeIndex ? 'bg-accent text-accent-foreground ring-1 ring-ring/40' : 'hover:bg-muted',
                  )}
                >
                  <span className="flex min-w-0 flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
                    <span data-testid="search-hit-label" className="shrink-0 font-medium text-brand">
                      {hitSteps(hit)}
                    </span>
                    <span className="shrink-0">{KIND_LABELS[hit.kind]}</span>
                    <span
                      className="min-w-0 truncate max-md:order-last max-md:basis-full"
                      data-testid="search-hit-path"
                      title={hit.path_title}
                    >
                      in {hit.path_title}
                    </span>
                    {hit.is_latest_step && <span className="shrink-0">· latest</span>}
                  </span>
                  <span className="line-clamp-2 block" data-testid="search-hit-snippet">
                    {snippetParts(hit.snippet, hit.highlights).map((part, j) =>
                      part.isMatch ? (
                        <mark key={j} className="rounded-sm bg-amber-200 px-0.5 text-foreground">
                          {part.text}
                        </mark>
                      ) : (
                        part.text
                      ),
                    )}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
