// JSONL framing. Walks the text line by line without splitting it into one big array, and
// turns every unreadable line into a line-numbered diagnostic instead of an exception. Nesting
// deeper than the limit is refused before JSON.parse sees a line (nothing downstream ever
// recurses into it), and a line whose brackets or strings do not balance is reported without
// paying for a thrown SyntaxError: such lines are scanned once before they are parsed.
//
// A line that holds no more `{` and `[` than the limit, strings included, cannot nest deeper,
// and one JSON.parse accepts balances; so while lines parse, a line within that count is parsed
// first and scanned only if JSON.parse refuses it, which reports it exactly as the scan would
// have. After SCAN_FIRST_AFTER_FAILURES refused lines every line is scanned first again, so a
// file of broken lines pays a thrown SyntaxError for a few of them only.
import { MAX_NESTING_DEPTH } from '../limits';
import { DEFAULT_MAX_LINE_LENGTH, type ReadOptions, type ReaderDiagnostic } from './types';

export type JsonObject = Record<string, unknown>;

export type JsonlItem =
  { line: number; value: JsonObject } | { line: number; diagnostic: ReaderDiagnostic; isTooDeep?: true };

const MAX_MESSAGE_LENGTH = 200;
const SCAN_FIRST_AFTER_FAILURES = 64;

/** Yields every JSON object of the text with its line number, and a diagnostic per bad line. */
export function* readJsonlObjects(text: string, options: ReadOptions = {}): Generator<JsonlItem> {
  const reader = new JsonlReader(text, options);
  for (let item = reader.next(); item !== undefined; item = reader.next()) yield item;
}

/**
 * The items of readJsonlObjects one call at a time, each object with the JSON text it was
 * parsed from (`objectText`: its line, or its part of a glued line), so that a reader can parse
 * again the little it needs later instead of keeping every parsed value alive.
 */
export class JsonlReader {
  /** The JSON text of the last object `next` answered. */
  objectText = '';
  private readonly maxLineLength: number;
  private readonly maxDepth: number;
  private readonly failures = { count: 0 };
  private start: number;
  private line = 0;
  /** The rest of a glued line. */
  private queued: GluedItem[] = [];

  constructor(
    private readonly text: string,
    options: ReadOptions = {},
  ) {
    this.maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
    this.maxDepth = options.maxNestingDepth ?? MAX_NESTING_DEPTH;
    this.start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  }

  /** The next item, or undefined after the last line. */
  next(): JsonlItem | undefined {
    const queued = this.queued.shift();
    if (queued !== undefined) {
      this.objectText = queued.text;
      return queued.item;
    }
    const { text } = this;
    while (this.start <= text.length) {
      const line = ++this.line;
      const start = this.start;
      const newline = text.indexOf('\n', start);
      const stop = newline === -1 ? text.length : newline;
      this.start = newline === -1 ? text.length + 1 : newline + 1;
      if (stop - start > this.maxLineLength)
        return { line, diagnostic: { kind: 'line-too-long', line, length: stop - start } };
      const raw = text.slice(start, stop);
      if (!/\S/.test(raw)) continue;
      const parsed = parseLine(raw, line, this.maxDepth, this.failures);
      if (!Array.isArray(parsed)) {
        this.objectText = raw;
        return parsed;
      }
      this.queued = parsed;
      return this.next();
    }
    return undefined;
  }
}

interface GluedItem {
  item: JsonlItem;
  text: string;
}

/** The line's object, or its diagnostic; a glued line's diagnostic and objects. */
function parseLine(
  raw: string,
  line: number,
  maxDepth: number,
  failures: { count: number },
): JsonlItem | GluedItem[] {
  let shape: string | undefined;
  if (failures.count >= SCAN_FIRST_AFTER_FAILURES || !isWithinBracketCount(raw, maxDepth)) {
    shape = scanJsonShape(raw, maxDepth);
    if (shape !== BALANCED) return shapeDiagnostic(shape, line, maxDepth);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw) as unknown;
  } catch (error: unknown) {
    failures.count++;
    shape ??= scanJsonShape(raw, maxDepth);
    if (shape !== BALANCED) return shapeDiagnostic(shape, line, maxDepth);
    const glued = gluedValues(raw);
    if (glued === undefined) {
      const message = error instanceof Error ? error.message : String(error);
      return {
        line,
        diagnostic: { kind: 'malformed-line', line, message: message.slice(0, MAX_MESSAGE_LENGTH) },
      };
    }
    const count = glued.values.length;
    const items: GluedItem[] = [
      { item: { line, diagnostic: { kind: 'glued-objects', line, count } }, text: raw },
    ];
    glued.values.forEach((each, at) => items.push({ item: objectItem(each, line), text: glued.texts[at]! }));
    return items;
  }
  return objectItem(value, line);
}

function objectItem(value: unknown, line: number): JsonlItem {
  if (isJsonObject(value)) return { line, value };
  return { line, diagnostic: { kind: 'invalid-record', line, reason: 'not a JSON object' } };
}

function shapeDiagnostic(shape: string, line: number, maxDepth: number): JsonlItem {
  if (shape === TOO_DEEP) {
    const message = `nested deeper than ${maxDepth} levels`;
    return { line, diagnostic: { kind: 'malformed-line', line, message }, isTooDeep: true };
  }
  return { line, diagnostic: { kind: 'malformed-line', line, message: shape } };
}

/** At most `maxDepth` `{` and `[` in the line, strings included: it cannot nest deeper. */
function isWithinBracketCount(raw: string, maxDepth: number): boolean {
  let count = 0;
  for (let at = raw.indexOf('{'); at !== -1; at = raw.indexOf('{', at + 1))
    if (++count > maxDepth) return false;
  for (let at = raw.indexOf('['); at !== -1; at = raw.indexOf('[', at + 1))
    if (++count > maxDepth) return false;
  return true;
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
  return gluedValues(raw)?.values;
}

/** splitConcatenatedJson's values, with the text each was parsed from. */
function gluedValues(raw: string): { values: unknown[]; texts: string[] } | undefined {
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
  return { values, texts: segments };
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(value: JsonObject, key: string): string | undefined {
  const field = value[key];
  return typeof field === 'string' ? field : undefined;
}
