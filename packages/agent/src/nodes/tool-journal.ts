// A run-scoped record of the tool calls that ran, independent of the stream.
//
// LangGraph stops a run on abort without waiting for the node in flight, so a
// tool that was already writing to the workspace finishes after the stream
// has closed and its `custom` event is lost. runTurn waits on the journal
// before it returns: no workspace call outlives the turn, and every call that
// ran is reported (and settled into the context) exactly once.
import type { ToolEventPayload } from './stream-payloads';

export class ToolJournal {
  readonly entries: ToolEventPayload[] = [];
  private readonly inflight = new Set<Promise<unknown>>();
  private reserved = 0;

  /** Runs `work`, keeping track of it until it settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    const promise = work();
    this.inflight.add(promise);
    try {
      return await promise;
    } finally {
      this.inflight.delete(promise);
    }
  }

  nextSeq(): number {
    this.reserved += 1;
    return this.reserved - 1;
  }

  record(entry: ToolEventPayload): void {
    this.entries.push(entry);
  }

  /** Resolves once no tracked work is in flight. */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }
}
