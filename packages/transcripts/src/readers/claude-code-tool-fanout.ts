// Parallel tool calls (issue 7 §3: "the fan-out of parallel tool calls and their results is not
// a branch"). Claude Code writes one record per content block, chained: thinking → tool_use A →
// tool_use B. Each tool_result then names its own tool_use as parent, so the result of A hangs
// off A beside B, and the conversation continues below one result only:
//
//   A ─┬─ B ── result B ── next turn          becomes        A ── B ── result A ── result B ── next turn
//      └─ result A   (a false leaf)
//
// All results answering the tool calls of one assistant message (same message.id) form one
// logical step: their separate chains are joined, one after the other, below the message's last
// record. Chains that lead on to the rest of the conversation go last, so the continuation stays
// below every result and a genuine fork after the step stays a fork. Results that are already
// chained keep their links; a step with a single result chain is left as written.

export interface FanOutEntry {
  readonly uuid: string;
  readonly parentUuid: string | null;
  readonly isAssistant: boolean;
  readonly messageId: string | undefined;
  readonly toolUseIds: readonly string[];
  readonly toolResultIds: readonly string[];
  /** A user or assistant message or a significant system record: the conversation goes on here. */
  readonly isContinuation: boolean;
}

interface ToolStep {
  /** Physically last record of the assistant message. */
  anchor: number;
  results: number[];
}

export interface Reparent {
  from: string | null;
  to: string;
}

/** The new parent of each re-chained result uuid. `entries` are in physical order. */
export function linearizeToolFanOut(entries: readonly FanOutEntry[]): Map<string, Reparent> {
  const firstIndex = new Map<string, number>();
  entries.forEach((entry, index) => {
    if (!firstIndex.has(entry.uuid)) firstIndex.set(entry.uuid, index);
  });
  const isFirst = (index: number) => firstIndex.get(entries[index]!.uuid) === index;
  const parentIndex = (index: number) => {
    const parent = entries[index]!.parentUuid;
    return parent === null ? undefined : firstIndex.get(parent);
  };

  // Marks every ancestor of a continuation; each record is marked at most once, so this is
  // linear and stops on cycles.
  const leadsOn = new Uint8Array(entries.length);
  entries.forEach((entry, index) => {
    if (!entry.isContinuation || !isFirst(index)) return;
    for (let p = parentIndex(index); p !== undefined && leadsOn[p] === 0; p = parentIndex(p)) leadsOn[p] = 1;
  });

  const steps = new Map<string, ToolStep>();
  const stepOfToolUse = new Map<string, ToolStep>();
  entries.forEach((entry, index) => {
    if (!isFirst(index)) return;
    if (entry.isAssistant) {
      const key = entry.messageId ?? `record:${entry.uuid}`;
      let step = steps.get(key);
      if (step === undefined) steps.set(key, (step = { anchor: index, results: [] }));
      step.anchor = index;
      for (const id of entry.toolUseIds) if (!stepOfToolUse.has(id)) stepOfToolUse.set(id, step);
      return;
    }
    const answered = entry.toolResultIds.find((id) => stepOfToolUse.has(id));
    if (answered !== undefined) stepOfToolUse.get(answered)!.results.push(index);
  });

  const newParents = new Map<string, Reparent>();
  for (const step of steps.values()) {
    // A result written before its own assistant message is corrupt enough to leave alone.
    if (step.results.length < 2 || step.anchor > step.results[0]!) continue;
    chainResults(entries, step, leadsOn, newParents);
  }
  return newParents;
}

function chainResults(
  entries: readonly FanOutEntry[],
  step: ToolStep,
  leadsOn: Uint8Array,
  newParents: Map<string, Reparent>,
): void {
  const inStep = new Map(step.results.map((index) => [entries[index]!.uuid, index]));
  const childrenInStep = new Map<string, number[]>();
  const heads: number[] = [];
  for (const index of step.results) {
    const parent = entries[index]!.parentUuid;
    if (parent === null || !inStep.has(parent)) {
      heads.push(index);
      continue;
    }
    const siblings = childrenInStep.get(parent);
    if (siblings === undefined) childrenInStep.set(parent, [index]);
    else siblings.push(index);
  }
  if (heads.length < 2) return;

  const ordered = [
    ...heads.filter((index) => leadsOn[index] === 0),
    ...heads.filter((index) => leadsOn[index] === 1),
  ];
  let previous = entries[step.anchor]!.uuid;
  for (const head of ordered) {
    const entry = entries[head]!;
    if (entry.parentUuid !== previous) newParents.set(entry.uuid, { from: entry.parentUuid, to: previous });
    previous = entries[bottomOf(entries, head, childrenInStep)]!.uuid;
  }
}

/** The end of a result chain: follow the physically last in-step child, bounded by a visited set. */
function bottomOf(
  entries: readonly FanOutEntry[],
  head: number,
  childrenInStep: Map<string, number[]>,
): number {
  const visited = new Set<number>([head]);
  let current = head;
  for (;;) {
    const next = childrenInStep.get(entries[current]!.uuid)?.at(-1);
    if (next === undefined || visited.has(next)) return current;
    visited.add(next);
    current = next;
  }
}
