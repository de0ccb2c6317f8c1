'use client';
import { useQuery } from '@tanstack/react-query';
import { authorshipApi } from '@/lib/api/authorship';
import { queryKeys } from '@/lib/api/query-keys';

/** What the overlay describes: a thread's live document, or a restored step's (`turn`). */
export interface AuthorshipTarget {
  threadId: string;
  turn: number | null;
}

/** Parses the workspace source's key: `thread` (live) or `thread@step` (a restored step). */
export function authorshipTarget(key: string | null): AuthorshipTarget | null {
  if (!key) return null;
  const at = key.lastIndexOf('@');
  if (at < 0) return { threadId: key, turn: null };
  const turn = Number(key.slice(at + 1));
  return Number.isInteger(turn) && turn >= 0 ? { threadId: key.slice(0, at), turn } : null;
}

/**
 * The spans of the target's document, fetched only while the overlay is on. The live document's
 * spans are refetched when its stored text changes (`content`), a restored step's never.
 */
export function useAuthorship(target: AuthorshipTarget | null, isOn: boolean, content: string) {
  return useQuery({
    queryKey: [...queryKeys.thread(target?.threadId ?? ''), 'authorship', target?.turn ?? 'live', target?.turn === null ? contentKey(content) : ''],
    queryFn: ({ signal }) => authorshipApi.get(target!.threadId, target!.turn, signal),
    enabled: isOn && target !== null,
    staleTime: target?.turn === null ? 0 : Infinity,
    placeholderData: (previous) => previous,
  });
}

/** A cheap fingerprint of the stored text (FNV-1a and the length), so the query key stays small. */
function contentKey(content: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < content.length; i++) hash = Math.imul(hash ^ content.charCodeAt(i), 0x01000193);
  return `${content.length}:${(hash >>> 0).toString(36)}`;
}
