// Markdown sections by heading text, for bringing one section of a document onto another path.
// Headings are ATX headings (`#` … `######`, up to three spaces of indent); lines inside a fenced
// code block (``` or ~~~) are never headings. A section runs from its heading line to the next
// heading of the same or a higher level (fewer `#`s), so it holds its subsections.

/** One heading line of a document: where it starts, its level and its text (no `#`s, trimmed). */
export interface MarkdownHeading {
  readonly start: number;
  readonly level: number;
  readonly text: string;
}

/**
 * A run of the document: the preamble before the first heading (`heading: null`), then one part per
 * heading line up to the next heading of any level. Joining every part's `text` gives the document
 * back exactly, whatever it holds.
 */
export interface MarkdownPart {
  readonly heading: MarkdownHeading | null;
  readonly text: string;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Every heading line of `markdown`, in order, skipping fenced code. */
export function markdownHeadings(markdown: string): MarkdownHeading[] {
  return scan(markdown).headings;
}

/**
 * The headings of a document given as pieces that each end at a line end (the last one may not),
 * piece by piece, each heading's start counted from its piece's start: a code fence left open at
 * the end of a piece goes on into the next, so the pieces' headings are the whole document's.
 */
export function markdownHeadingsByPiece(pieces: readonly string[]): MarkdownHeading[][] {
  let fence: string | null = null;
  return pieces.map((piece) => {
    const scanned = scan(piece, fence);
    fence = scanned.openFence;
    return scanned.headings;
  });
}

/**
 * The headings, and the fence still open at the end of the document (CommonMark closes it there).
 * `openFence` is the fence open where the text starts (the text a piece of a longer document).
 */
function scan(markdown: string, openFence: string | null = null): { headings: MarkdownHeading[]; openFence: string | null } {
  const headings: MarkdownHeading[] = [];
  let fence = openFence;
  let start = 0;
  while (start <= markdown.length) {
    const newline = markdown.indexOf('\n', start);
    const end = newline === -1 ? markdown.length : newline;
    const line = markdown.slice(start, end).replace(/\r$/, '');
    const opening = FENCE.exec(line);
    if (fence !== null) {
      // A closing fence: the same character, at least as long, nothing but spaces after it.
      if (opening && opening[1]![0] === fence[0] && opening[1]!.length >= fence.length && line.trim() === opening[1]) {
        fence = null;
      }
    } else if (opening && !(opening[1]![0] === '`' && line.slice(line.indexOf(opening[1]!) + opening[1]!.length).includes('`'))) {
      fence = opening[1]!;
    } else {
      const match = HEADING.exec(line);
      if (match) headings.push({ start, level: match[1]!.length, text: (match[2] ?? '').replace(/[ \t]+#+$/, '').trim() });
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  return { headings, openFence: fence };
}

/** The document cut at every heading line (see {@link MarkdownPart}). */
export function splitMarkdownParts(markdown: string): MarkdownPart[] {
  const headings = markdownHeadings(markdown);
  const parts: MarkdownPart[] = [];
  const first = headings[0]?.start ?? markdown.length;
  if (first > 0 || headings.length === 0) parts.push({ heading: null, text: markdown.slice(0, first) });
  headings.forEach((heading, i) => {
    parts.push({ heading, text: markdown.slice(heading.start, headings[i + 1]?.start ?? markdown.length) });
  });
  return parts;
}

/** Normalised heading text for matching: inner whitespace collapsed (case is kept: "Notes" ≠ "notes"). */
export function headingKey(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Where the first section titled `heading` lies in `markdown` ([start, end)), or null. */
export function findSection(markdown: string, heading: string): { start: number; end: number; level: number } | null {
  const wanted = headingKey(heading);
  const headings = markdownHeadings(markdown);
  const at = headings.findIndex((h) => headingKey(h.text) === wanted);
  if (at === -1) return null;
  const found = headings[at]!;
  const next = headings.slice(at + 1).find((h) => h.level <= found.level);
  return { start: found.start, end: next?.start ?? markdown.length, level: found.level };
}

/** The text of the first section titled `heading` (its heading line and subsections), or null. */
export function sectionText(markdown: string, heading: string): string | null {
  const range = findSection(markdown, heading);
  return range && markdown.slice(range.start, range.end);
}

export type SectionEffect = 'added' | 'replaced' | 'unchanged';

/**
 * Puts `section` (a section's text, heading line first) into `target`: in place of the target's
 * section of the same heading when it has one, else at the end after a blank line. The target's own
 * spacing around the section is kept, so replacing a section with an equal one changes nothing.
 */
export function putSection(target: string, heading: string, section: string): { content: string; effect: SectionEffect } {
  const body = section.replace(/\s+$/, '');
  const range = findSection(target, heading);
  if (range === null) {
    // A code block left open at the end would swallow the section: close it first.
    const { openFence } = scan(target);
    const base = openFence === null ? target : `${target}${target.endsWith('\n') || target === '' ? '' : '\n'}${openFence}\n`;
    const separator = base === '' ? '' : base.endsWith('\n\n') ? '' : base.endsWith('\n') ? '\n' : '\n\n';
    return { content: `${base}${separator}${body}\n`, effect: 'added' };
  }
  const old = target.slice(range.start, range.end);
  const oldBody = old.replace(/\s+$/, '');
  if (oldBody === body) return { content: target, effect: 'unchanged' };
  const trailing = old.slice(oldBody.length) || (range.end < target.length ? '\n' : '');
  return { content: target.slice(0, range.start) + body + trailing + target.slice(range.end), effect: 'replaced' };
}

/** Where an applied section goes on the target: after or before a section, or in place of one. */
export type SectionPlace = { after: string } | { before: string } | { replace: string };

/**
 * Where a section stands on its source, as a place on the target: after the section whose heading
 * comes before it on the source (of the same or a higher level), else before the one that follows
 * it, when the target has that heading; null when neither is there (it then goes at the end).
 */
export function sourcePlace(source: string, heading: string, target: string): SectionPlace | null {
  const headings = markdownHeadings(source);
  const at = headings.findIndex((h) => headingKey(h.text) === headingKey(heading));
  const own = headings[at];
  if (!own) return null;
  const onTarget = new Set(markdownHeadings(target).map((h) => headingKey(h.text)));
  for (let i = at - 1; i >= 0; i--) {
    const h = headings[i]!;
    if (h.level <= own.level && onTarget.has(headingKey(h.text))) return h.level === own.level ? { after: h.text } : null;
    if (h.level < own.level) break;
  }
  const next = headings.slice(at + 1).find((h) => h.level <= own.level);
  if (next && next.level === own.level && onTarget.has(headingKey(next.text))) return { before: next.text };
  return null;
}

/**
 * Puts `section` at `place` on `target`. A section of the same heading already on the target moves
 * there (it is taken out first); `replace` puts it in place of the named section. Throws a
 * RangeError naming the heading when the place's section is not on the target.
 */
export function placeSection(
  target: string,
  heading: string,
  section: string,
  place: SectionPlace,
): { content: string; effect: SectionEffect } {
  const body = section.replace(/\s+$/, '');
  const anchor = 'after' in place ? place.after : 'before' in place ? place.before : place.replace;
  if (findSection(target, anchor) === null) throw new RangeError(anchor);
  const existing = findSection(target, heading);
  let base = target;
  let effect: SectionEffect = 'added';
  if (existing && headingKey(anchor) !== headingKey(heading)) {
    base = removeRange(target, existing.start, existing.end);
    effect = 'replaced';
  }
  const range = findSection(base, anchor)!;
  if ('replace' in place) {
    const old = base.slice(range.start, range.end);
    const oldBody = old.replace(/\s+$/, '');
    if (oldBody === body && base === target) return { content: target, effect: 'unchanged' };
    const trailing = old.slice(oldBody.length) || (range.end < base.length ? '\n' : '');
    return { content: base.slice(0, range.start) + body + trailing + base.slice(range.end), effect: 'replaced' };
  }
  const at = 'after' in place ? range.end : range.start;
  const content = insertBlock(base, at, body);
  return { content, effect: content === target ? 'unchanged' : effect };
}

/** `body` as its own block at `at` (a line start or the end): a blank line on each side, no more. */
function insertBlock(text: string, at: number, body: string): string {
  const before = text.slice(0, at).replace(/\n*$/, '');
  const after = text.slice(at).replace(/^\n*/, '');
  if (before === '') return after === '' ? `${body}\n` : `${body}\n\n${after}`;
  return after === '' ? `${before}\n\n${body}\n` : `${before}\n\n${body}\n\n${after}`;
}

/** The text without [start, end), keeping one blank line between what was on either side. */
function removeRange(text: string, start: number, end: number): string {
  const before = text.slice(0, start).replace(/\n*$/, '');
  const after = text.slice(end).replace(/^\n*/, '');
  if (before === '') return after;
  return after === '' ? `${before}\n` : `${before}\n\n${after}`;
}
