/**
 * Text hygiene shared by the export formats: one newline convention, and no character that XML 1.0
 * forbids or that cannot be encoded as UTF-8 (C0 controls other than tab and newline, U+FFFE/U+FFFF,
 * unpaired surrogates). Each format then escapes what is special to it.
 */
const NEWLINES = /\r\n?|[\u2028\u2029]/g;

export function cleanText(text: string): string {
  let out = '';
  // Iterating by code point: a valid surrogate pair arrives whole, an unpaired half alone.
  for (const char of text.replace(NEWLINES, '\n')) {
    if (isAllowed(char.codePointAt(0) ?? 0)) out += char;
  }
  return out;
}

function isAllowed(code: number): boolean {
  if (code < 0x20) return code === 0x09 || code === 0x0a;
  if (code >= 0xd800 && code <= 0xdfff) return false;
  return code !== 0xfffe && code !== 0xffff;
}
