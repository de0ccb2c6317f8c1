/**
 * The document alone as Markdown for an export (docs/branching.md, "Export"), built as parts whose
 * concatenation is the text. The content may come whole or in pieces, and it is only ever sliced,
 * never copied whole: V8 keeps a slice as a view of its string, while each whole copy of a large
 * document is an allocation that only a full collection frees, so an export of many paths would
 * pile them up.
 */
import type { Workspace } from '../contracts/workspace';
import { markdownHeadingsByPiece, type MarkdownHeading } from '../apply/sections';
import { displayedDocumentTitle } from '../workspace/document-title';
import { titleText } from './filename';

/** A document's content: whole, or as pieces whose concatenation is the content (cut anywhere). */
export type DocumentText = string | readonly string[];

export interface DocumentMarkdownInput {
  readonly pathTitle: string;
  readonly document: Pick<Workspace['document'], 'title'> & { readonly content: DocumentText };
}

/**
 * The document alone, as it stands: when its body opens with its one top heading it is the file as
 * written; otherwise a clean `#` heading (the document's title, else the path's) goes first and the
 * body's headings move below it.
 */
export function documentToMarkdown(input: DocumentMarkdownInput): string {
  return documentMarkdownParts(input).join('');
}

/**
 * {@link documentToMarkdown}'s text as parts: the content only as slices of its pieces, but for a line
 * that runs from one piece into the next (put together, a line's copy).
 */
export function documentMarkdownParts(input: DocumentMarkdownInput): string[] {
  const pieces = lineAlignedPieces(input.document.content);
  const headings = markdownHeadingsByPiece(pieces);
  if (opensWithItsTitle(pieces, headings)) return [...trimParts(pieces), '\n'];
  const title = displayedDocumentTitle(input.document.title, '') ?? input.pathTitle;
  const heading = `# ${headingText(title)}\n`;
  return pieces.every(isBlank) ? [heading] : [heading, '\n', ...trimParts(nestHeadingParts(pieces, headings, 2)), '\n'];
}

/** Nothing but whitespace in the content. */
export function isBlankText(content: DocumentText): boolean {
  return typeof content === 'string' ? isBlank(content) : content.every(isBlank);
}

/**
 * Moves every ATX heading outside code fences (apply/sections' scan) down so the shallowest becomes
 * level `top` (at most level 6); a text whose shallowest heading is already at or below `top` is
 * unchanged.
 */
export function nestHeadings(markdown: string, top: number): string {
  return nestHeadingParts([markdown], markdownHeadingsByPiece([markdown]), top).join('');
}

/** {@link nestHeadings} of line-aligned pieces as parts: slices of the pieces around the headings' new `#` runs. */
function nestHeadingParts(pieces: readonly string[], headings: readonly (readonly MarkdownHeading[])[], top: number): string[] {
  const levels = headings.flat().map((h) => h.level);
  const shift = levels.length === 0 ? 0 : top - Math.min(...levels);
  if (shift <= 0) return [...pieces];
  const out: string[] = [];
  pieces.forEach((piece, i) => {
    let at = 0;
    for (const { start, level } of headings[i] ?? []) {
      const hashes = piece.indexOf('#', start);
      out.push(piece.slice(at, hashes), '#'.repeat(Math.min(6, level + shift)));
      at = hashes + level;
    }
    out.push(piece.slice(at));
  });
  return out;
}

/**
 * The content cut again so that every piece but the last ends at a line end, as apply/sections'
 * scan reads a piece: a piece's lines are sliced off it, and a line that runs from one piece into
 * the next is put together.
 */
function lineAlignedPieces(content: DocumentText): string[] {
  if (typeof content === 'string') return content === '' ? [] : [content];
  const out: string[] = [];
  let open: string[] = []; // a line begun in the pieces before, not yet ended
  for (const piece of content) {
    const end = piece.lastIndexOf('\n') + 1;
    if (end === 0) {
      open.push(piece);
      continue;
    }
    const first = open.length > 0 ? piece.indexOf('\n') + 1 : 0;
    if (first > 0) out.push([...open, piece.slice(0, first)].join(''));
    if (end > first) out.push(piece.slice(first, end));
    open = end < piece.length ? [piece.slice(end)] : [];
  }
  const last = open.join('');
  if (last !== '') out.push(last);
  return out;
}

/** The first line holds a top heading and no other top heading follows (else the sections need a title above them). */
function opensWithItsTitle(pieces: readonly string[], headings: readonly (readonly MarkdownHeading[])[]): boolean {
  const tops = headings.flatMap((list, i) => list.filter((h) => h.level === 1).map((h) => ({ piece: i, start: h.start })));
  if (tops.length !== 1) return false;
  const { piece, start } = tops[0]!;
  return pieces.slice(0, piece).every(isBlank) && isBlank(pieces[piece]!.slice(0, start));
}

/**
 * The parts with the whitespace that `trim` would remove from their concatenation removed: blank
 * parts at either end dropped, the outermost remaining ones trimmed (a slice of a slice, no copy).
 */
function trimParts(parts: readonly string[]): string[] {
  let first = 0;
  while (first < parts.length && isBlank(parts[first]!)) first++;
  const out = parts.slice(first);
  if (out.length > 0) out[0] = out[0]!.trimStart();
  return trimPartsEnd(out);
}

/** The parts with the whitespace that `trimEnd` would remove from their concatenation removed. */
export function trimPartsEnd(parts: readonly string[]): string[] {
  let end = parts.length;
  while (end > 0 && isBlank(parts[end - 1]!)) end--;
  const out = parts.slice(0, end);
  if (out.length > 0) out[end - 1] = out[end - 1]!.trimEnd();
  return out;
}

/** Nothing but whitespace (`\s` is the set `trim` removes), found without copying the text. */
function isBlank(text: string): boolean {
  return !/\S/.test(text);
}

function headingText(title: string): string {
  return titleText(title) || 'Untitled';
}
