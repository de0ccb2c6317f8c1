import { plainTitle } from '../conversation/plain-title';

/** A name's length from which it is shortened, at a word boundary, and its hard cap. */
const SHORTEN_FROM = 100;
const HARD_CAP = 120;

/**
 * A title as plain text for a file name or a heading: markdown markers and directive prefixes go
 * (`plainTitle`), and so does the ellipsis a clamped title carries.
 */
export function titleText(title: string): string {
  return plainTitle(title.normalize('NFC'))
    .replace(/\s*(?:…|\.\.\.)$/, '')
    .trim();
}

/**
 * A download's file name from a user's title: the plain title with path separators, control and
 * reserved characters replaced, no leading dots; a name longer than 100 characters is shortened at
 * the last word boundary before 120 (never below 60); "conversation" when nothing is left.
 */
export function safeFilename(title: string, extension: string): string {
  const base = shortenAtWord(
    titleText(title)
      .replace(/[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^[.\s]+/, '')
      .replace(/[.\s]+$/, ''),
  );
  return `${base === '' ? 'conversation' : base}.${extension}`;
}

/**
 * Names made unique within one archive: the second "Draft.md" becomes "Draft (2).md", and so on,
 * compared without case (zip readers on case-insensitive file systems would merge them).
 */
export function uniqueFilenames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; seen.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
    seen.add(candidate.toLowerCase());
    return candidate;
  });
}

function shortenAtWord(text: string): string {
  if ([...text].length <= SHORTEN_FROM) return text;
  const chars = [...text].slice(0, HARD_CAP);
  const cut = chars.join('');
  const boundary = cut.lastIndexOf(' ');
  return (boundary >= 60 ? cut.slice(0, boundary) : cut).trim();
}

/**
 * `Content-Disposition: attachment` for a file name: an ASCII fallback in `filename="…"` and the
 * exact name in RFC 8187 `filename*` for clients that read it.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(filename)}`;
}

/**
 * RFC 8187's value-chars: only attr-chars stay as they are. encodeURIComponent also leaves
 * `'` (the ext-value's own delimiter), `(`, `)` and `*` unencoded, so those are encoded here.
 */
function encodeExtValue(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}
