'use client';
import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Authorship, AuthorshipChange } from '@trellis/domain';
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
  const known = useRef<KnownChanges | null>(null);
  return useQuery({
    queryKey: [
      ...queryKeys.thread(target?.threadId ?? ''),
      'authorship',
      target?.turn ?? 'live',
      target?.turn === null ? contentKey(content) : '',
    ],
    queryFn: ({ signal }) =>
      target!.turn === null
        ? readLive(target!.threadId, known, signal)
        : authorshipApi.get(target!.threadId, target!.turn, signal),
    enabled: isOn && target !== null,
    staleTime: target?.turn === null ? 0 : Infinity,
    placeholderData: (previous) => previous,
  });
}

/** The change details a live overlay has read so far (they never change), and the highest seq among them. */
interface KnownChanges {
  threadId: string;
  through: number;
  bySeq: Map<number, AuthorshipChange>;
}

/**
 * The live document's spans after an edit, asking only for the changes past those already known: a
 * read after one edit carries that edit's change, not one per earlier edit. Should the spans name a
 * change it has not seen (text brought back from before), it reads them all once more.
 */
async function readLive(
  threadId: string,
  known: { current: KnownChanges | null },
  signal: AbortSignal,
): Promise<Authorship> {
  const had = known.current?.threadId === threadId ? known.current : null;
  let read = await authorshipApi.get(threadId, null, signal, had?.through);
  const bySeq = new Map(had?.bySeq);
  for (const change of read.changes) bySeq.set(change.seq, change);
  const named = read.spans.flatMap((s) => (s.via === 'apply' || s.seq === null ? [] : [s.seq]));
  if (had && named.some((seq) => !bySeq.has(seq))) {
    read = await authorshipApi.get(threadId, null, signal);
    bySeq.clear();
    for (const change of read.changes) bySeq.set(change.seq, change);
  }
  const wanted = new Set(named);
  known.current = { threadId, through: Math.max(had?.through ?? 0, ...named, 0), bySeq };
  const changes = [...bySeq.values()].filter((c) => wanted.has(c.seq)).sort((a, b) => a.seq - b.seq);
  return { ...read, changes };
}

/** A cheap fingerprint of the stored text (FNV-1a and the length), so the query key stays small. */
function contentKey(content: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < content.length; i++) hash = Math.imul(hash ^ content.charCodeAt(i), 0x01000193);
  return `${content.length}:${(hash >>> 0).toString(36)}`;
}
