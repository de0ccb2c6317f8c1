// JSON nesting is bounded before parsing: `JSON.parse` and every recursive reader after it (a
// schema check, a structured clone) use the stack, so a body of 100,000 `[` is a stack overflow
// somewhere — a 5xx — unless it is refused first. No contract of this API nests deeper than a
// few levels; the bound leaves room for any honest body.
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests objects and arrays deeper than `max` (strings are skipped; malformed text is JSON.parse's to refuse). */
export function exceedsJsonDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
