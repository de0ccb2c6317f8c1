/**
 * Where a piece of `text` that starts at `start` and holds at most `size` UTF-16 units ends, never
 * inside a surrogate pair: the end moves back before a pair it would split, or past it when the piece
 * would otherwise be empty (a size of 1 on a pair). Streams of text sent in pieces (a reply's progress
 * notifications, an export's UTF-8 slices) cut with it.
 */
export function pieceEnd(text: string, start: number, size: number): number {
  const end = Math.min(text.length, start + Math.max(1, size));
  if (end >= text.length) return end;
  const last = text.charCodeAt(end - 1);
  if (last < 0xd800 || last > 0xdbff) return end;
  return end - 1 > start ? end - 1 : end + 1;
}
