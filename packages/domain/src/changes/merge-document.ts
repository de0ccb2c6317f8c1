// The three-way merge of a document save made on a stale base: the
// person's text and the current text are both edits of the base; edits in different places merge,
// edits of the same words conflict. Tokens are words with their leading whitespace (a paragraph is
// one line in this editor, so lines would make two edits of one paragraph a conflict; leading, so a
// paragraph appended after the last word leaves that word's token alone), and the
// common prefix and suffix of the three texts are kept out of the merge so its cost follows the
// edited region, not the document.
import { diff3Merge } from 'node-diff3';

export type DocumentMerge = { isClean: true; text: string } | { isClean: false };

export function mergeDocumentText(base: string, mine: string, theirs: string): DocumentMerge {
  if (mine === theirs || theirs === base) return { isClean: true, text: mine };
  if (mine === base) return { isClean: true, text: theirs };
  const prefix = commonPrefix(base, mine, theirs);
  const suffix = commonSuffix(base, mine, theirs, prefix);
  const mid = (s: string) => s.slice(prefix, s.length - suffix);
  const blocks = diff3Merge(tokens(mid(mine)), tokens(mid(base)), tokens(mid(theirs)), { excludeFalseConflicts: true });
  let merged = '';
  for (const block of blocks) {
    if (block.conflict) {
      const resolved =
        besideEdit(block.conflict.a, block.conflict.o, block.conflict.b) ?? besideDeletion(block.conflict.a, block.conflict.o, block.conflict.b);
      if (resolved === null) return { isClean: false };
      merged += resolved;
    } else {
      merged += block.ok?.join('') ?? '';
    }
  }
  return { isClean: true, text: base.slice(0, prefix) + merged + base.slice(base.length - suffix) };
}

/**
 * diff3 calls an insertion right next to an edit a conflict (the hunks touch). When one side only
 * added text before or after the region the other side edited — the agent appends a paragraph while
 * the person rewrites the last sentence — both are kept: the edit, then (or after) the insertion.
 * Anything else in a conflict block (both sides changed the same words) stays a conflict.
 */
function besideEdit(a: string[], o: string[], b: string[]): string | null {
  const [mine, base, theirs] = [a.join(''), o.join(''), b.join('')];
  if (theirs.startsWith(base)) return mine + theirs.slice(base.length);
  if (theirs.endsWith(base)) return theirs.slice(0, theirs.length - base.length) + mine;
  if (mine.startsWith(base)) return theirs + mine.slice(base.length);
  if (mine.endsWith(base)) return mine.slice(0, mine.length - base.length) + theirs;
  return null;
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

/** Words with their leading whitespace, trailing whitespace as its own token; joined they give the text back. */
function tokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

function commonPrefix(a: string, b: string, c: string): number {
  const max = Math.min(a.length, b.length, c.length);
  let n = 0;
  while (n < max && a.charCodeAt(n) === b.charCodeAt(n) && a.charCodeAt(n) === c.charCodeAt(n)) n++;
  return backToBoundary(a, n);
}

function commonSuffix(a: string, b: string, c: string, prefix: number): number {
  const max = Math.min(a.length, b.length, c.length) - prefix;
  let n = 0;
  while (
    n < max &&
    a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n) &&
    a.charCodeAt(a.length - 1 - n) === c.charCodeAt(c.length - 1 - n)
  ) {
    n++;
  }
  // Keep whole tokens in the middle: cut the suffix at whitespace (a word is merged whole or not at all).
  while (n > 0 && !/\s/.test(a.charAt(a.length - n))) n--;
  return n;
}

/** Back to the start of the word the prefix ends in, so the merge sees whole words. */
function backToBoundary(text: string, n: number): number {
  while (n > 0 && !/\s/.test(text.charAt(n - 1))) n--;
  return n;
}
