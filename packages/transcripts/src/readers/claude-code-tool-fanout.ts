// Parallel tool calls (docs/architecture.md, "Real transcripts": the fan-out of parallel tool
// calls and their results is not a branch). Claude Code writes one record per content block,
// chained: text → tool_use A → tool_use B → tool_use C. Each tool_result then names its own
// tool_use as parent, progress records for the next tool hang off the previous result, and the
// message may go on after its results (another tool_use with the same message.id):
//
//   A ─┬─ B ─┬─ C ── result C ── tool_use D ── result D ── next turn
//      │     └─ result B ── progress           (false leaves, one per call)
//      └─ result A ── progress
//
//   becomes  A ── B ── C ── result A ── progress ── result B ── progress ── result C ── tool_use D …
//
// A *round* is a run of one message's assistant records that continue each other (through
// neutral records at most); a record of the message that continues below a result starts the
// next round. All results answering one round's tool calls, with the neutral records hanging
// below them, form one logical step: their separate chains are joined one after the other below
// the round's last record, chains that lead on to the rest of the conversation last, so a
// genuine fork after the step stays a fork. Results that are already chained keep their links;
// a step with a single result chain is left as written unless it dangles beside later calls of
// the round (the session ended before their results). A later round that starts below one of a
// round's results is part of that result's chain: the next chain joins below the later round's
// step, not beside it (real files answer a second round before the first round's last result).
// A join that would close a parent cycle (only possible in a corrupt file) is not made.
//
// Every pass is linear in the number of entries: maps keyed by uuid or tool id, typed arrays
// indexed by entry, and each chain walked once.

export type FanOutKind =
  /** An assistant record: one content block of an API message. */
  | 'assistant'
  /** A user record holding only tool results. */
  | 'result'
  /** Progress, hook and attachment bookkeeping. */
  | 'neutral'
  /** A prompt or a significant system record: the conversation goes on here. */
  | 'continuation';

/** What the fan-out reads of a mapped record (the reader hands its records over as they are). */
export interface FanOutEntry {
  readonly record: { readonly uuid: string };
  readonly source: { readonly messageId?: string | undefined };
  readonly kind: FanOutKind;
  readonly toolUseIds: readonly string[];
  readonly toolResultIds: readonly string[];
}

interface Round {
  /** Physically last assistant record of the round. */
  anchor: number;
  /** First copies of the results answering the round's tool calls, in physical order. */
  results: number[];
  /** The round starts below a result of the message's previous round. */
  isLaterRound: boolean;
}

const NONE = -1;
/** linearizeToolFanOut's answer for an entry that keeps its parent. */
export const NOT_REPARENTED = NONE;
/** Undoing joins that close cycles converges in one or two passes; past this, undo them all. */
const MAX_UNDO_PASSES = 4;

/**
 * Per entry, the index of the entry it is re-chained below, else NOT_REPARENTED; only first
 * entries of a uuid are re-chained. `entries` are in physical order; `first` gives each entry's
 * first entry of its uuid (uuidIndex) and `parents` each entry's parent index (parentIndices).
 */
export function linearizeToolFanOut(
  entries: readonly FanOutEntry[],
  first: Int32Array,
  parents: Int32Array,
): Int32Array {
  const size = entries.length;
  const isFirst = new Uint8Array(size);
  const parent = new Int32Array(size).fill(NONE);
  for (let i = 0; i < size; i++) {
    if (first[i] !== i) continue;
    isFirst[i] = 1;
    parent[i] = Math.max(parents[i]!, NONE);
  }

  const { rounds, stepOf, roundOfAssistant, significant, continuedBy } = collectRounds(
    entries,
    isFirst,
    parent,
  );
  const leadsOn = markAncestorsOfContinuations(entries, isFirst, parent, rounds, roundOfAssistant);

  const lastChild = lastChildrenInSteps(stepOf, parent);
  const reparented = new Int32Array(size).fill(NONE);
  const roundOfJoin = new Int32Array(size).fill(NONE);
  // A later round of the message that starts below one of this round's results belongs to that
  // result's chain: the chain ends where the later round's step ends. Later rounds come first.
  const roundBottom = new Int32Array(rounds.length).fill(NONE);
  const bottomOfChain = (head: number) => {
    const bottom = bottomOf(head, lastChild);
    const later = continuedBy[bottom]!;
    return later !== NONE && roundBottom[later] !== NONE ? roundBottom[later]! : bottom;
  };
  for (let id = rounds.length - 1; id >= 0; id--) {
    const round = rounds[id]!;
    const heads = round.results.length === 0 ? [] : headsOf(round, id, stepOf, parent);
    if (heads.length === 0) roundBottom[id] = round.anchor;
    else if (
      heads.length === 1 &&
      !isBesideTheRound(heads[0]!, round, id, parent, significant, roundOfAssistant)
    )
      roundBottom[id] = bottomOfChain(heads[0]!);
    else
      roundBottom[id] = joinHeads(round, id, heads, bottomOfChain, parent, leadsOn, reparented, roundOfJoin);
  }
  undoJoinsThatCloseCycles(parent, reparented, roundOfJoin);
  return reparented;
}

/**
 * Each record is marked at most once, so this is linear and stops on cycles. A later round of a
 * message does not lead on: it is still the same step of the conversation.
 */
function markAncestorsOfContinuations(
  entries: readonly FanOutEntry[],
  isFirst: Uint8Array,
  parent: Int32Array,
  rounds: readonly Round[],
  roundOfAssistant: Int32Array,
): Uint8Array {
  const leadsOn = new Uint8Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const kind = entries[i]!.kind;
    if (isFirst[i] === 0 || (kind !== 'continuation' && kind !== 'assistant')) continue;
    if (kind === 'assistant' && rounds[roundOfAssistant[i]!]?.isLaterRound === true) continue;
    for (let p = parent[i]!; p !== NONE && leadsOn[p] === 0; p = parent[p]!) leadsOn[p] = 1;
  }
  return leadsOn;
}

/**
 * Rounds of each message and, per entry, the round whose step it belongs to (a result of the
 * round, or a neutral record hanging below one), else NONE.
 */
interface Rounds {
  rounds: Round[];
  /** Entry → the round whose step it belongs to, else NONE. */
  stepOf: Int32Array;
  /** Entry → the round of an assistant entry, else NONE. */
  roundOfAssistant: Int32Array;
  /** Entry → its nearest non-neutral ancestor-or-self, resolved through earlier parents. */
  significant: Int32Array;
  /** A result → the later round of its message that starts below it, else NONE. */
  continuedBy: Int32Array;
}

function collectRounds(entries: readonly FanOutEntry[], isFirst: Uint8Array, parent: Int32Array): Rounds {
  const size = entries.length;
  const rounds: Round[] = [];
  const roundOfAssistant = new Int32Array(size).fill(NONE);
  const stepOf = new Int32Array(size).fill(NONE);
  /** Nearest non-neutral ancestor-or-self, resolved through parents written earlier. */
  const significant = new Int32Array(size).fill(NONE);
  const continuedBy = new Int32Array(size).fill(NONE);
  const openRound = new Map<string, number>();
  const roundOfToolUse = new Map<string, number>();

  for (let i = 0; i < size; i++) {
    if (isFirst[i] === 0) continue;
    const entry = entries[i]!;
    const p = parent[i]!;
    significant[i] = entry.kind !== 'neutral' ? i : p !== NONE && p < i ? significant[p]! : p;

    if (entry.kind === 'assistant') {
      const key = entry.source.messageId ?? `record:${entry.record.uuid}`;
      const above = p === NONE ? NONE : p < i ? significant[p]! : p;
      let round = openRound.get(key);
      if (round === undefined || above === NONE || roundOfAssistant[above] !== round) {
        const earlier = round;
        const isLaterRound = earlier !== undefined && above !== NONE && stepOf[above] === earlier;
        round = rounds.push({ anchor: i, results: [], isLaterRound }) - 1;
        openRound.set(key, round);
        if (isLaterRound && continuedBy[above] === NONE) continuedBy[above] = round;
      }
      roundOfAssistant[i] = round;
      rounds[round]!.anchor = i;
      // A stretch written again (a resumed session) repeats tool ids: a result answers the
      // latest call written with its id, the one in its own copy.
      for (const id of entry.toolUseIds) roundOfToolUse.set(id, round);
      continue;
    }
    if (entry.kind === 'result') {
      for (const id of entry.toolResultIds) {
        const round = roundOfToolUse.get(id);
        if (round === undefined) continue;
        stepOf[i] = round;
        rounds[round]!.results.push(i);
        break;
      }
      continue;
    }
    if (entry.kind === 'neutral' && p !== NONE && p < i) stepOf[i] = stepOf[p]!;
  }
  return { rounds, stepOf, roundOfAssistant, significant, continuedBy };
}

/** Results of the round whose parent is not in the step: the starts of its separate chains. */
function headsOf(round: Round, id: number, stepOf: Int32Array, parent: Int32Array): number[] {
  const heads: number[] = [];
  for (const index of round.results) {
    const p = parent[index]!;
    if (p === NONE || stepOf[p] !== id) heads.push(index);
  }
  return heads;
}

/**
 * A lone result chain is already linear unless it hangs (through progress records at most) off
 * an earlier call of the round than its last record: then it dangles beside the later calls,
 * as when the session ended before their results came back.
 */
function isBesideTheRound(
  head: number,
  round: Round,
  id: number,
  parent: Int32Array,
  significant: Int32Array,
  roundOfAssistant: Int32Array,
): boolean {
  const p = parent[head]!;
  const above = p === NONE ? NONE : significant[p]!;
  return above !== NONE && above !== round.anchor && roundOfAssistant[above] === id;
}

/** Returns the end of the joined step. */
function joinHeads(
  round: Round,
  id: number,
  heads: readonly number[],
  bottomOfChain: (head: number) => number,
  parent: Int32Array,
  leadsOn: Uint8Array,
  reparented: Int32Array,
  roundOfJoin: Int32Array,
): number {
  const ordered = [...heads.filter((h) => leadsOn[h] === 0), ...heads.filter((h) => leadsOn[h] === 1)];
  let previous = round.anchor;
  for (const head of ordered) {
    if (parent[head] !== previous) {
      reparented[head] = previous;
      roundOfJoin[head] = id;
    }
    previous = bottomOfChain(head);
  }
  return previous;
}

/**
 * The end of a member chain: follow the physically last child in the step. A child is always
 * written after its parent (stepOf only follows earlier parents), so the walk cannot loop.
 */
function bottomOf(head: number, lastChild: Int32Array): number {
  let current = head;
  while (lastChild[current] !== NONE) current = lastChild[current]!;
  return current;
}

/** Per step member, its physically last child in the same step. */
function lastChildrenInSteps(stepOf: Int32Array, parent: Int32Array): Int32Array {
  const lastChild = new Int32Array(stepOf.length).fill(NONE);
  for (let i = 0; i < stepOf.length; i++) {
    const p = parent[i]!;
    if (stepOf[i] !== NONE && p !== NONE && p < i && stepOf[p] === stepOf[i]) lastChild[p] = i;
  }
  return lastChild;
}

/**
 * A join closes a cycle only when a result was written as an ancestor of its own tool call.
 * Cycles through a re-chained record undo every join of that record's round; the original
 * links (and any cycle they had) are kept.
 */
function undoJoinsThatCloseCycles(parent: Int32Array, reparented: Int32Array, roundOfJoin: Int32Array): void {
  const joinedParent = (node: number) => (reparented[node] !== NONE ? reparented[node]! : parent[node]!);
  for (let pass = 0; ; pass++) {
    const badRounds = new Set<number>();
    for (const node of nodesOnCycles(parent.length, joinedParent)) {
      if (roundOfJoin[node] !== NONE) badRounds.add(roundOfJoin[node]!);
    }
    if (badRounds.size === 0) return;
    const undoAll = pass + 1 >= MAX_UNDO_PASSES;
    for (let node = 0; node < reparented.length; node++) {
      if (roundOfJoin[node] === NONE || !(undoAll || badRounds.has(roundOfJoin[node]!))) continue;
      reparented[node] = NONE;
      roundOfJoin[node] = NONE;
    }
  }
}

/** Members of every cycle of a functional graph (one parent per node), in one linear pass. */
function nodesOnCycles(size: number, parentOf: (node: number) => number): number[] {
  const state = new Uint8Array(size); // 0 new, 1 on the current walk, 2 done
  const walk: number[] = [];
  const members: number[] = [];
  for (let start = 0; start < size; start++) {
    if (state[start] !== 0) continue;
    walk.length = 0;
    let node = start;
    while (node !== NONE && state[node] === 0) {
      state[node] = 1;
      walk.push(node);
      node = parentOf(node);
    }
    if (node !== NONE && state[node] === 1) {
      for (let i = walk.length - 1; i >= 0; i--) {
        members.push(walk[i]!);
        if (walk[i] === node) break;
      }
    }
    for (const visited of walk) state[visited] = 2;
  }
  return members;
}
