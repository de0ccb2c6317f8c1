/**
 * Default titles are plain text: a title made from a first
 * message, or one stored before this rule, reads without its markdown markers or directive
 * prefixes, so the few characters a narrow history row shows are words.
 */

/** The studio's chat directives (`append: …`); a title never starts with one. */
const DIRECTIVE = /^(?:objective|doc|append|prefer|todo|done|artifact)\s*:\s*/i;
/** Block markers at the start of a line: headings, quotes, list bullets, task boxes (a number such as `3.` is kept: it names a section). */
const BLOCK_MARKER = /^(?:#{1,6}(?=\s|$)|>|[-*+](?=\s)|\[[ xX]\](?=\s))\s*/;

/**
 * The plain text of one line of markdown, for a title: leading heading/quote/list markers and
 * directive prefixes (repeatedly, so `todo: - [ ] ## x` is `x`), emphasis markers (`**`, `__`,
 * `*x*`, `~~`), inline code backticks and link syntax (`[text](url)` is `text`) removed,
 * whitespace collapsed. Text that is only markers stays as it was rather than vanishing.
 */
export function plainTitle(text: string): string {
  let line = text.replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 8; i++) {
    const next = line.replace(DIRECTIVE, '').replace(BLOCK_MARKER, '').trimStart();
    if (next === line) break;
    line = next;
  }
  line = line
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`+/g, '')
    .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[\s(])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
    .replace(/\*\*|__|~~/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return line === '' ? text.trim() : line;
}

/** A title from a first message: the first non-empty line, in plain text. */
export function plainTitleFromMessage(content: string): string {
  const line = content.split('\n').map((l) => l.trim()).find((l) => plainTitle(l).replace(/[#>*\-+`_~\s]/g, '') !== '') ?? '';
  return plainTitle(line);
}
