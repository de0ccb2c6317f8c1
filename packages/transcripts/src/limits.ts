// Caps for reading untrusted uploads (docs/architecture.md, "Uploads cannot hurt anyone else").
// Every reader pass is linear, but linear in a hostile size is still too much for one request,
// so the caller names its limits and gets a typed refusal instead of a stall or an exception.
// The services layer maps each `kind` to its HTTP status; this package knows nothing of HTTP.

export interface TranscriptLimits {
  /** Records (main conversation and sidechains) read before the file is refused. */
  maxRecords: number;
  /** Deepest `{`/`[` nesting a line may have; checked before JSON.parse sees the line. */
  maxNestingDepth: number;
  /** Semantic leaves an inspection may report. */
  maxLeaves: number;
  /** Diagnostics are all counted; only this many are listed. */
  maxListedDiagnostics: number;
}

export const MAX_TRANSCRIPT_RECORDS = 200_000;
export const MAX_NESTING_DEPTH = 256;
export const MAX_TRANSCRIPT_LEAVES = 1_000;
export const MAX_LISTED_TRANSCRIPT_DIAGNOSTICS = 1_000;

export const DEFAULT_TRANSCRIPT_LIMITS: Readonly<TranscriptLimits> = Object.freeze({
  maxRecords: MAX_TRANSCRIPT_RECORDS,
  maxNestingDepth: MAX_NESTING_DEPTH,
  maxLeaves: MAX_TRANSCRIPT_LEAVES,
  maxListedDiagnostics: MAX_LISTED_TRANSCRIPT_DIAGNOSTICS,
});

/**
 * Why a transcript was refused. `too-many-records` is about size (the caller's "payload too
 * large"); `nesting-too-deep` and `too-many-leaves` are about content it cannot accept.
 */
export type TranscriptLimitError =
  | { kind: 'too-many-records'; limit: number; line: number; message: string }
  | { kind: 'nesting-too-deep'; limit: number; line: number; message: string }
  | { kind: 'too-many-leaves'; limit: number; leafCount: number; message: string };

export type TranscriptLimitErrorKind = TranscriptLimitError['kind'];

export type WithinLimits<T> = { ok: true; value: T } | { ok: false; error: TranscriptLimitError };

export function resolveLimits(limits: Partial<TranscriptLimits> | undefined): TranscriptLimits {
  return { ...DEFAULT_TRANSCRIPT_LIMITS, ...limits };
}

export function tooManyRecords(limit: number, line: number): TranscriptLimitError {
  return {
    kind: 'too-many-records',
    limit,
    line,
    message: `The transcript holds more than ${limit.toLocaleString('en-US')} records (line ${line}); split it or remove old sessions first`,
  };
}

export function nestingTooDeep(limit: number, line: number): TranscriptLimitError {
  return {
    kind: 'nesting-too-deep',
    limit,
    line,
    message: `Line ${line} nests JSON deeper than ${limit} levels`,
  };
}

export function tooManyLeaves(limit: number, leafCount: number): TranscriptLimitError {
  return {
    kind: 'too-many-leaves',
    limit,
    leafCount,
    message: `The transcript has ${leafCount.toLocaleString('en-US')} conversation leaves; at most ${limit.toLocaleString('en-US')} can be imported at once`,
  };
}

/** Counts every item, keeps the first `limit`. */
export class CappedList<T> {
  readonly items: T[] = [];
  count = 0;

  constructor(private readonly limit: number) {}

  push(item: T): void {
    if (this.items.length < this.limit) this.items.push(item);
    this.count++;
  }
}
