/**
 * Builds conversation families the way the studio does — turns appended to threads, branches opened
 * at a valid step, soft deletes — with strictly increasing timestamps, and yields the rows the
 * database layer would hand to `assembleFamilyGraph`. Thread ids are deliberately not in creation
 * order, so code that leans on id order or row order fails the tests built on this.
 */
import type { FamilyThreadRow, TurnMetaRow } from '../assemble';

export interface FamilyRows {
  readonly threads: FamilyThreadRow[];
  readonly turns: TurnMetaRow[];
}

export interface FamilyBuilderOptions {
  /** First timestamp; default 2025-01-01T00:00:00.000Z. */
  readonly start?: Date;
  /** Clock step between two events; default one second. */
  readonly tickMs?: number;
}

type MutableThreadRow = { -readonly [K in keyof FamilyThreadRow]: FamilyThreadRow[K] };

export class FamilyBuilder {
  private readonly threadRows: MutableThreadRow[] = [];
  private readonly turnRows: TurnMetaRow[] = [];
  private readonly lastTurnOf = new Map<string, number>();
  private clockMs: number;
  private readonly tickMs: number;

  constructor(options: FamilyBuilderOptions = {}) {
    this.clockMs = (options.start ?? new Date('2025-01-01T00:00:00.000Z')).getTime();
    this.tickMs = options.tickMs ?? 1000;
  }

  /** Thread ids in creation order. */
  get threadIds(): string[] {
    return this.threadRows.map((row) => row.thread_id);
  }

  root(title = 'Root'): string {
    return this.addThread(null, null, null, title);
  }

  /** Appends the next turn to a thread (a branch at k starts at k + 1) and returns its index. */
  turn(threadId: string, fields: Partial<Omit<TurnMetaRow, 'thread_id' | 'turn_index'>> = {}): number {
    const turnIndex = this.lastTurn(threadId) + 1;
    this.turnRows.push({
      thread_id: threadId,
      turn_index: turnIndex,
      user_message: `message ${turnIndex} of ${threadId}`,
      reply_preview: `reply ${turnIndex}`,
      tool_count: 0,
      captured_at: this.tick(),
      artifact_count: 0,
      ...fields,
    });
    this.lastTurnOf.set(threadId, turnIndex);
    return turnIndex;
  }

  turns(threadId: string, count: number): this {
    for (let i = 0; i < count; i++) this.turn(threadId);
    return this;
  }

  /** Opens a branch of `parentId` at step k, validated like the branch endpoint. */
  branch(parentId: string, k: number, reason: string | null = null, title?: string): string {
    if (!this.validBranchPoints(parentId).includes(k)) {
      throw new RangeError(`cannot branch ${parentId} at ${k}`);
    }
    return this.addThread(parentId, k, reason, title ?? `Branch ${this.threadRows.length}`);
  }

  softDelete(threadId: string): this {
    this.thread(threadId).deleted_at = this.tick();
    return this;
  }

  isDeleted(threadId: string): boolean {
    return this.thread(threadId).deleted_at !== null;
  }

  /** The thread's latest turn; its branch point (or 0 for a root) while it owns none. */
  lastTurn(threadId: string): number {
    return this.lastTurnOf.get(threadId) ?? 0;
  }

  /** Steps the branch endpoint accepts: above the thread's own branch point, up to its tip; 0 only off a root. */
  validBranchPoints(threadId: string): number[] {
    const row = this.thread(threadId);
    const from = row.branch_point_turn === null ? 0 : row.branch_point_turn + 1;
    const points: number[] = [];
    for (let k = from; k <= this.lastTurn(threadId); k++) points.push(k);
    return points;
  }

  /** Fresh copies of the rows, in creation order. */
  rows(): FamilyRows {
    return {
      threads: this.threadRows.map((row) => ({ ...row })),
      turns: this.turnRows.map((row) => ({ ...row })),
    };
  }

  private addThread(parentId: string | null, k: number | null, reason: string | null, title: string): string {
    const threadId = scrambledThreadId(this.threadRows.length);
    this.threadRows.push({
      thread_id: threadId,
      parent_thread_id: parentId,
      branch_point_turn: k,
      reason,
      title,
      created_at: this.tick(),
      deleted_at: null,
    });
    this.lastTurnOf.set(threadId, k ?? 0);
    return threadId;
  }

  private thread(threadId: string): MutableThreadRow {
    const row = this.threadRows.find((candidate) => candidate.thread_id === threadId);
    if (row === undefined) throw new RangeError(`unknown thread ${threadId}`);
    return row;
  }

  private tick(): Date {
    this.clockMs += this.tickMs;
    return new Date(this.clockMs);
  }
}

/** `th_<32 hex>` from a creation index, scrambled by an odd multiplier so ids do not sort by age. */
export function scrambledThreadId(index: number): string {
  const mixed = Math.imul(index + 1, 0x9e3779b1) >>> 0;
  return `th_${mixed.toString(16).padStart(8, '0')}${index.toString(16).padStart(24, '0')}`;
}
