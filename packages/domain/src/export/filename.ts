/**
 * A download's file name from a user's title: no path separators, control or reserved characters,
 * no leading dots, at most 80 characters before the extension; "conversation" when nothing is left.
 */
export function safeFilename(title: string, extension: string): string {
  const base = title
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .slice(0, 80)
    .trim();
  return `${base === '' ? 'conversation' : base}.${extension}`;
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
