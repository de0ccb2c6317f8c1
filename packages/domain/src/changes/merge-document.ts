// The three-way merge of a document save made on a stale base ("No lost edit"): the person's text
// and the current text are both edits of the base; edits in different places merge, edits of the
// same words conflict.
//
// Its cost is bounded, whatever the texts: a word-level diff3 over a whole long document costs far
// more than the text (every "the" matches every other "the"), so the merge runs in two levels.
// Lines first: each side is diffed against the base by lines (Myers, jsdiff) with a cap on the edit
// distance and a time budget. Hunks of the two sides that neither overlap nor touch are taken as
// they are; only where they do is the region merged again, by words (a paragraph is one line in
// this editor, so two edits of one paragraph are a line conflict that words resolve). Past the cap
// or the budget the answer is `too_complex`, never a longer wait.
import { diffArrays } from 'diff';

export type DocumentMerge =
  | { isClean: true; text: string }
  /** `overlap`: both sides changed the same words; `too_complex`: the merge ran out of its budget. */
  | { isClean: false; reason: 'overlap' | 'too_complex' };

export interface MergeBudget {
  /** Most lines either side may differ from the base by (the line diff's edit distance). */
  maxLineEdits: number;
  /** Most words either side may differ from the base by inside one overlapping region. */
  maxWordEdits: number;
  /** Wall-clock time the whole merge may take, in milliseconds. */
  timeoutMs: number;
}

export const DEFAULT_MERGE_BUDGET: MergeBudget = { maxLineEdits: 4_000, maxWordEdits: 4_000, timeoutMs: 4_000 };

export function mergeDocumentText(base: string, mine: string, theirs: string, budget: MergeBudget = DEFAULT_MERGE_BUDGET): DocumentMerge {
  if (mine === theirs || theirs === base) return { isClean: true, text: mine };
  if (mine === base) return { isClean: true, text: theirs };
  const deadline = Date.now() + budget.timeoutMs;
  const prefix = commonLinePrefix(base, mine, theirs);
  const suffix = commonLineSuffix(base, mine, theirs, prefix);
  const mid = (s: string) => s.slice(prefix, s.length - suffix);
  const words = (o: string, a: string, b: string): string | Refusal =>
    mergeTokens(wordTokens(o), wordTokens(a), wordTokens(b), budget.maxWordEdits, deadline, (ro, ra, rb) =>
      resolveBeside(ra, ro, rb),
    );
  const merged = mergeTokens(lineTokens(mid(base)), lineTokens(mid(mine)), lineTokens(mid(theirs)), budget.maxLineEdits, deadline, (ro, ra, rb) =>
    words(ro.join(''), ra.join(''), rb.join('')),
  );
  if (typeof merged !== 'string') return { isClean: false, reason: merged.refused };
  return { isClean: true, text: base.slice(0, prefix) + merged + base.slice(base.length - suffix) };
}

interface Refusal {
  refused: 'overlap' | 'too_complex';
}

/** A side's change of the base: base tokens [start, end) become `tokens`. */
export interface TokenHunk {
  start: number;
  end: number;
  tokens: string[];
}

/**
 * diff3 over tokens, from two bounded two-way diffs: the hunks of each side against the base, taken
 * in base order; hunks of the two sides that overlap or touch (an insertion right beside the other
 * side's edit) form one region, which is the same change on both sides or goes to `resolve`.
 */
function mergeTokens(
  base: string[],
  mine: string[],
  theirs: string[],
  maxEdits: number,
  deadline: number,
  resolve: (base: string[], mine: string[], theirs: string[]) => string | Refusal,
): string | Refusal {
  const a = hunksOf(base, mine, maxEdits, deadline);
  const b = hunksOf(base, theirs, maxEdits, deadline);
  if (!a || !b) return { refused: 'too_complex' };
  let out = '';
  let at = 0;
  for (const { start, end, groupA, groupB } of diff3Regions(a, b)) {
    out += base.slice(at, start).join('');
    if (groupB.length === 0) out += applyHunks(base, start, end, groupA).join('');
    else if (groupA.length === 0) out += applyHunks(base, start, end, groupB).join('');
    else {
      const region = base.slice(start, end);
      const ra = applyHunks(base, start, end, groupA);
      const rb = applyHunks(base, start, end, groupB);
      if (ra.join('') === rb.join('')) out += ra.join('');
      else {
        if (Date.now() > deadline) return { refused: 'too_complex' };
        const resolved = resolve(region, ra, rb);
        if (typeof resolved !== 'string') return resolved;
        out += resolved;
      }
    }
    at = end;
  }
  return out + base.slice(at).join('');
}

/** One region of a diff3: base tokens [start, end) and the hunks of each side inside it (either may be empty). */
export interface Diff3Region {
  start: number;
  end: number;
  groupA: TokenHunk[];
  groupB: TokenHunk[];
}

/**
 * The two sides' hunks in base order, grouped: hunks of the two sides that overlap or touch form
 * one region. Hunks of one side never touch each other (a diff separates them by a kept token), so
 * a hunk that reaches a region's end overlaps or touches the other side's.
 */
export function* diff3Regions(a: readonly TokenHunk[], b: readonly TokenHunk[]): Generator<Diff3Region> {
  let ia = 0;
  let ib = 0;
  while (ia < a.length || ib < b.length) {
    const first = ib >= b.length || (ia < a.length && a[ia]!.start <= b[ib]!.start) ? 'a' : 'b';
    const groupA: TokenHunk[] = [];
    const groupB: TokenHunk[] = [];
    const seed = first === 'a' ? a[ia++]! : b[ib++]!;
    (first === 'a' ? groupA : groupB).push(seed);
    const start = seed.start;
    let end = seed.end;
    for (;;) {
      let next: TokenHunk;
      if (ia < a.length && a[ia]!.start <= end) groupA.push((next = a[ia++]!));
      else if (ib < b.length && b[ib]!.start <= end) groupB.push((next = b[ib++]!));
      else break;
      end = Math.max(end, next.end);
    }
    yield { start, end, groupA, groupB };
  }
}

/** The side's hunks against the base, or null past the edit cap or the deadline. */
export function hunksOf(base: string[], side: string[], maxEdits: number, deadline: number): TokenHunk[] | null {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return null;
  const parts = diffArrays(base, side, { maxEditLength: maxEdits, timeout: remaining });
  if (!parts) return null;
  const hunks: TokenHunk[] = [];
  let open: TokenHunk | null = null;
  let i = 0;
  for (const part of parts) {
    if (!part.added && !part.removed) {
      if (open) hunks.push(open);
      open = null;
      i += part.count;
      continue;
    }
    open ??= { start: i, end: i, tokens: [] };
    if (part.removed) {
      i += part.count;
      open.end = i;
    } else {
      for (const token of part.value) open.tokens.push(token);
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

/** Base tokens [start, end) with one side's hunks (all inside that range) applied. */
export function applyHunks(base: readonly string[], start: number, end: number, hunks: readonly TokenHunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const h of hunks) {
    for (let i = at; i < h.start; i++) out.push(base[i]!);
    for (const token of h.tokens) out.push(token);
    at = h.end;
  }
  for (let i = at; i < end; i++) out.push(base[i]!);
  return out;
}

/**
 * Two edits that touch are a conflict to diff3. When one side only added text before or after the
 * region the other side edited — the agent appends a paragraph while the person rewrites the last
 * sentence — both are kept: the edit, then (or after) the insertion. Anything else (both sides
 * changed the same words) stays a conflict.
 */
function besideEdit(mine: string, base: string, theirs: string): string | Refusal {
  if (theirs.startsWith(base)) return mine + theirs.slice(base.length);
  if (theirs.endsWith(base)) return theirs.slice(0, theirs.length - base.length) + mine;
  if (mine.startsWith(base)) return theirs + mine.slice(base.length);
  if (mine.endsWith(base)) return mine.slice(0, mine.length - base.length) + theirs;
  return { refused: 'overlap' };
}

/**
 * The same for a deletion right next to an edit: one side removed the start or the end of the
 * region and the other side left exactly that part alone while editing the rest — a retry taking
 * back the agent's appended paragraph while the person reworded the sentence before it. The edit
 * stays and the removed part goes.
 */
function besideDeletion(a: string[], o: string[], b: string[]): string | null {
  const [mine, base, theirs] = [a.join(''), o.join(''), b.join('')];
  const cut = (kept: string, edited: string): string | null => {
    if (kept !== '' && base.startsWith(kept)) {
      const gone = base.slice(kept.length);
      if (edited.endsWith(gone)) return edited.slice(0, edited.length - gone.length);
    }
    if (kept !== '' && base.endsWith(kept)) {
      const gone = base.slice(0, base.length - kept.length);
      if (edited.startsWith(gone)) return edited.slice(gone.length);
    }
    return null;
  };
  return cut(theirs, mine) ?? cut(mine, theirs);
}

/** An overlap one side's edit and the other's deletion beside it settle, or a refusal. */
function resolveBeside(a: string[], o: string[], b: string[]): string | Refusal {
  const edited = besideEdit(a.join(''), o.join(''), b.join(''));
  if (typeof edited === 'string') return edited;
  return besideDeletion(a, o, b) ?? edited;
}

/** Lines with their line break; joined they give the text back. */
export function lineTokens(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * Words with their leading whitespace, trailing whitespace as its own token (leading, so a
 * paragraph appended after the last word leaves that word's token alone); joined they give the text back.
 */
function wordTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** The common prefix of the three texts, cut after its last line break: the merge sees whole lines. */
function commonLinePrefix(a: string, b: string, c: string): number {
  const max = Math.min(a.length, b.length, c.length);
  let n = 0;
  while (n < max && a.charCodeAt(n) === b.charCodeAt(n) && a.charCodeAt(n) === c.charCodeAt(n)) n++;
  return a.lastIndexOf('\n', n - 1) + 1;
}

/** The common suffix (not reaching into the prefix), starting after its first line break. */
function commonLineSuffix(a: string, b: string, c: string, prefix: number): number {
  const max = Math.min(a.length, b.length, c.length) - prefix;
  let n = 0;
  while (
    n < max &&
    a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n) &&
    a.charCodeAt(a.length - 1 - n) === c.charCodeAt(c.length - 1 - n)
  ) {
    n++;
  }
  const firstBreak = a.indexOf('\n', a.length - n);
  return firstBreak < 0 ? 0 : a.length - firstBreak - 1;
}
