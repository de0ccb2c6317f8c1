'use client';
import { useQuery } from '@tanstack/react-query';
import type { SearchHit, SearchHitKind } from '@trellis/domain';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { conversationsApi } from '@/lib/api/conversations';
import { errorMessage } from '@/lib/api/http';

const KIND_LABELS: Record<SearchHitKind, string> = {
  message: 'Message',
  reply: 'Reply',
  document: 'Document',
  preference: 'Preference',
  todo: 'Todo',
};

export interface SearchDialogProps {
  /** Opens a hit's step in the restore view (nothing is created). */
  onOpenStep: (threadId: string, step: number) => void;
}

/** Search across every path (Ctrl/Cmd+K): hits listed with their step labels; one opens its step. */
export function SearchDialog({ onOpenStep }: SearchDialogProps) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
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

  // Every opening starts from an empty box.
  const changeOpen = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setText('');
      setQuery('');
    }
  };

  const openHit = (hit: SearchHit) => {
    changeOpen(false);
    onOpenStep(hit.thread_id, hit.turn_index);
  };

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
          <DialogDescription>Messages, replies, document versions, preferences and todos of every path.</DialogDescription>
          <input
            autoFocus
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              const first = results.data?.hits[0];
              if (event.key === 'Enter' && first !== undefined) openHit(first);
            }}
            aria-label="Search your conversations"
            placeholder="swarming, “exact phrase”, -excluded"
            data-testid="search-input"
            className="w-full rounded-md border bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
          <div className="max-h-[60vh] min-h-16 overflow-y-auto" aria-live="polite">
            {query === '' ? null : results.isError ? (
              <p role="alert" className="text-sm text-destructive">
                Search failed: {errorMessage(results.error)}
              </p>
            ) : results.data === undefined ? (
              <p className="text-sm text-muted-foreground">Searching…</p>
            ) : results.data.hits.length === 0 ? (
              <p className="text-sm text-muted-foreground" data-testid="search-empty">
                Nothing found.
              </p>
            ) : (
              <ul className="space-y-1" data-testid="search-hits">
                {results.data.hits.map((hit) => (
                  <li key={`${hit.thread_id}:${hit.turn_index}:${hit.kind}:${hit.snippet}`}>
                    <button
                      type="button"
                      data-testid="search-hit"
                      data-thread-id={hit.thread_id}
                      data-turn-index={hit.turn_index}
                      onClick={() => openHit(hit)}
                      className="w-full rounded-md px-3 py-2 text-left text-sm hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      <span className="flex items-center gap-2 text-xs text-muted-foreground">
                        <span data-testid="search-hit-label" className="font-medium text-brand">
                          Step {hit.label}
                        </span>
                        <span>{KIND_LABELS[hit.kind]}</span>
                      </span>
                      <span className="line-clamp-2 block">{hit.snippet}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </DialogContent>
      </Dialog>
    </>
  );
}
