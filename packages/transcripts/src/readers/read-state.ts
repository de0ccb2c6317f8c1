// What every reader tracks while it walks a file: diagnostics (all counted, the first few
// listed when reading within limits), the record count against its cap, and the first refusal.
import { CappedList, nestingTooDeep, tooManyRecords, type TranscriptLimitError } from '../limits';
import type { JsonlItem, JsonObject } from './jsonl';
import type { ReaderDiagnostic } from './types';

export interface ReadBudget {
  maxRecords: number;
  maxListedDiagnostics: number;
  /** A line nested too deep refuses the whole file instead of being reported. */
  refuseTooDeep: boolean;
  maxNestingDepth: number;
}

export const UNLIMITED_BUDGET: Readonly<Omit<ReadBudget, 'maxNestingDepth'>> = {
  maxRecords: Number.POSITIVE_INFINITY,
  maxListedDiagnostics: Number.POSITIVE_INFINITY,
  refuseTooDeep: false,
};

export class ReadState {
  readonly diagnostics: CappedList<ReaderDiagnostic>;
  error: TranscriptLimitError | undefined;
  private records = 0;

  constructor(readonly budget: ReadBudget) {
    this.diagnostics = new CappedList(budget.maxListedDiagnostics);
  }

  /** The item's object, or undefined after recording its diagnostic (or the refusal). */
  valueOf(item: JsonlItem): JsonObject | undefined {
    if ('value' in item) return item.value;
    if (item.isTooDeep === true && this.budget.refuseTooDeep) {
      this.error ??= nestingTooDeep(this.budget.maxNestingDepth, item.line);
    } else {
      this.diagnostics.push(item.diagnostic);
    }
    return undefined;
  }

  /** Counts one record; false (with the refusal recorded) once the cap is passed. */
  admitRecord(line: number): boolean {
    if (++this.records <= this.budget.maxRecords) return true;
    this.error ??= tooManyRecords(this.budget.maxRecords, line);
    return false;
  }

  get isRefused(): boolean {
    return this.error !== undefined;
  }
}
