// A character diff of a rewritten sentence keeps stray letters of the old one ("e", " a", "nt"): kept
// as they are, each would stay its old author's and cut the new sentence into slivers of spans.
// Before carrying spans, a patch is coarsened like diff-match-patch's semantic cleanup: a kept run no
// longer than the edits on both sides of it counts as rewritten. The coarsened patch makes the same text.
import type { DocPatch } from '../changes/doc-patch';

type Segment = { keep: number } | { d: number; i: string };

export function coarsenPatch(oldText: string, patch: DocPatch): DocPatch {
  const segments: Segment[] = [];
  for (const op of patch) {
    const last = segments[segments.length - 1];
    if ('r' in op) {
      if (last && 'keep' in last) last.keep += op.r;
      else segments.push({ keep: op.r });
    } else if (last && 'd' in last) {
      if ('d' in op) last.d += op.d;
      else last.i += op.i;
    } else segments.push('d' in op ? { d: op.d, i: '' } : { d: 0, i: op.i });
  }
  // One pass left to right, merging into the edit before: a merged edit grows, so the next kept run
  // is judged against it (as the semantic cleanup's repeated passes would).
  const out: Segment[] = [];
  let oldPos = 0;
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index] as Segment;
    const previous = out[out.length - 1];
    const next = segments[index + 1];
    if ('keep' in segment && previous && 'd' in previous && next && 'd' in next) {
      const size = segment.keep;
      if (size <= Math.max(previous.d, previous.i.length) && size <= Math.max(next.d, next.i.length)) {
        previous.d += size + next.d;
        previous.i += oldText.slice(oldPos, oldPos + size) + next.i;
        oldPos += size + next.d;
        index++;
        continue;
      }
    }
    if ('keep' in segment) {
      out.push({ keep: segment.keep });
      oldPos += segment.keep;
    } else if (previous && 'd' in previous) {
      previous.d += segment.d;
      previous.i += segment.i;
      oldPos += segment.d;
    } else {
      out.push({ d: segment.d, i: segment.i });
      oldPos += segment.d;
    }
  }
  const result: DocPatch = [];
  for (const segment of out) {
    if ('keep' in segment) result.push({ r: segment.keep });
    else {
      if (segment.d > 0) result.push({ d: segment.d });
      if (segment.i !== '') result.push({ i: segment.i });
    }
  }
  return result;
}
