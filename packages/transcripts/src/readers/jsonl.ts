// JSONL framing. Walks the text line by line without splitting it into one big array, and
// turns every unreadable line into a line-numbered diagnostic instead of an exception. Each line
// is scanned once before JSON.parse: nesting deeper than the limit is refused there (nothing
// downstream ever recurses into it), and a line whose brackets or strings do not balance is
// reported without paying for a thrown SyntaxError.
import { MAX_NESTING_DEPTH } from '../limits';
import { DEFAULT_MAX_LINE_LENGTH, type ReadOptions, type ReaderDiagnostic } from './types';

export type JsonObject = Record<string, unknown>;

export type JsonlItem =
  { line: number; value: JsonObject } | { line: number; diagnostic: ReaderDiagnostic; isTooDeep?: true };

const MAX_MESSAGE_LENGTH = 200;

/** Yields every JSON object of the text with its line number, and a diagnostic per bad line. */
export function* readJsonlObjects(text: string, options: ReadOptions = {}): Generator<JsonlItem> {
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  const maxDepth = options.maxNestingDepth ?? MAX_NESTING_DEPTH;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let line = 1; start <= text.length; line++) {
    const newline = text.indexOf('\n', start);
    const stop = newline === -1 ? text.length : newline;
    const lineLength = stop - start;
    if (lineLength > maxLineLength) {
      yield { line, diagnostic: { kind: 'line-too-long', line, length: lineLength } };
    } else {
      const raw = text.slice(start, stop);
      if (/\S/.test(raw)) yield* parseLine(raw, line, maxDepth);
    }
    if (newline === -1) break;
    start = newline + 1;
  }
}

function* parseLine(raw: string, line: number, maxDepth: number): Generator<JsonlItem> {
  const shape = scanJsonShape(raw, maxDepth);
  if (shape === TOO_DEEP) {
    const message = `nested deeper than ${maxDepth} levels`;
    yield { line, diagnostic: { kind: 'malformed-line', line, message }, isTooDeep: true };
    return;
  }
  if (shape !== BALANCED) {
    yield { line, diagnostic: { kind: 'malformed-line', line, message: shape } };
    return;
  }
  let values: unknown[];
  try {
    values = [JSON.parse(raw) as unknown];
  } catch (error: unknown) {
    const glued = splitConcatenatedJson(raw);
    if (glued === undefined) {
      const message = error instanceof Error ? error.message : String(error);
      yield {
        line,
        diagnostic: { kind: 'malformed-line', line, message: message.slice(0, MAX_MESSAGE_LENGTH) },
      };
      return;
    }
    yield { line, diagnostic: { kind: 'glued-objects', line, count: glued.length } };
    values = glued;
  }
  for (const value of values) {
    if (isJsonObject(value)) yield { line, value };
    else yield { line, diagnostic: { kind: 'invalid-record', line, reason: 'not a JSON object' } };
  }
}

const BALANCED = 'balanced';
const TOO_DEEP = 'too deep';

/**
 * One pass over a line, outside strings: BALANCED when every bracket closes and every string
 * ends (the line may still be invalid JSON), TOO_DEEP past `maxDepth`, else why it cannot parse.
 * Only bracket balance is checked, not which kind closes which; JSON.parse judges the rest.
 */
export function scanJsonShape(raw: string, maxDepth: number): string {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 0x22) {
      // Jump to the closing quote: most of a record is string content.
      i = closingQuote(raw, i + 1);
      if (i === -1) return 'not valid JSON: unterminated string';
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > maxDepth) return TOO_DEEP;
    } else if (code === 0x7d || code === 0x5d) {
      if (--depth < 0) return 'not valid JSON: a bracket closes that never opened';
    }
  }
  if (depth > 0) return 'not valid JSON: unexpected end of input (unclosed bracket)';
  return BALANCED;
}

/** Index of the quote that ends the string starting at `from`, or -1. */
function closingQuote(raw: string, from: number): number {
  for (let quote = raw.indexOf('"', from); quote !== -1; quote = raw.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (raw.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/**
 * Splits `{…}{…}` (or `{…} {…}`) — two writers appending without a newline between them — into
 * its top-level values. Undefined unless there are at least two values and every one parses.
 */
export function splitConcatenatedJson(raw: string): unknown[] | undefined {
  const segments: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let segmentStart = -1;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') {
      if (depth === 0) return undefined;
      inString = true;
    } else if (char === '{' || char === '[') {
      if (depth === 0) segmentStart = i;
      depth++;
    } else if (char === '}' || char === ']') {
      depth--;
      if (depth < 0) return undefined;
      if (depth === 0) segments.push(raw.slice(segmentStart, i + 1));
    } else if (depth === 0 && !/\s/.test(char ?? '')) {
      return undefined;
    }
  }
  if (depth !== 0 || segments.length < 2) return undefined;
  const values: unknown[] = [];
  for (const segment of segments) {
    try {
      values.push(JSON.parse(segment) as unknown);
    } catch {
      return undefined;
    }
  }
  return values;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(value: JsonObject, key: string): string | undefined {
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}
