// The long tail of real Claude Code files, as reader rules over the mapped records.
// Every rule is Claude Code's own bookkeeping; the inspector's own rules are untouched, so
// Qwen Code records read exactly as before. Each pass is linear: maps keyed by uuid, one sweep
// in physical order or its reverse.
//
// 1. Re-appended chains: after API errors and interrupts Claude Code writes a stretch of the
//    conversation again under new uuids, byte-identical content and timestamps. A record whose
//    (role, sidechain, timestamp, content) fingerprint equals an earlier record's *under the same
//    (folded) parent* is folded into that record: it is dropped and its children move to it.
//    Folding walks down the chains, so two chains merge exactly as far as they agree. Content is
//    read again from the record's line and serialised only for records sharing a parent and a
//    timestamp (rare outside copies), then looked up in a map per (parent, stamp), so the pass
//    stays linear.
// 2. Retried streams: an assistant attempt (thinking or text, no tool call) that nothing but
//    neutral records follows is a dead attempt. Holding only thinking, it is not a conversation
//    (neutral). Holding visible text, cut by an API error (an `api_error` record or a synthetic
//    "API Error" reply below it) while its prompt has another continuation, it is an alternative
//    reply to that prompt: listed in `alternativeReplies`, neutral for the leaves.
// 3. A system command output that does not answer a command (written beside a tool result) is
//    neutral, like the informational system kinds the mapping already makes neutral.
// 4. A tree of records that holds no reply (an orphan plan-mode record, a local command run on
//    its own) is not a conversation when the file holds one, nor one of local commands alone
//    ever: its records become neutral. The inspector still reports the missing record a tree
//    continues (`missing-parent`).
// 5. Tool results whose parent was never written are attached to the record holding their
//    tool_use, else to the record written just before them; in a subagent file, every record
//    whose parent was never written.
// 6. A branch of bookkeeping alone (an `/exit`, a tool result left beside a local command, a
//    prompt answered only by thinking) beside a branch that leads on is a dead end: neutral.
import { RecordSubtype } from '../record-kind';
import { assistantTextFragments } from '../text';
import type { ChatRecord } from '../types';
import { isJsonObject, type JsonObject } from './jsonl';
import type { ClaudeCodeSource } from './types';

export const NEUTRAL_SUBTYPE = 'session_artifact_event';

export interface LongTailRecord {
  record: ChatRecord;
  source: ClaudeCodeSource;
  /**
   * The JSON text the record was read from. Its content is compared only when another record
   * shares the parent and stamp, and is parsed again from here then: keeping every record's
   * parsed content instead doubled what the young generation carries while a file is read.
   */
  json: string;
  /** An `api_error` record or a synthetic "API Error" reply. */
  isApiError: boolean;
  toolUseIds: readonly string[];
  toolResultIds: readonly string[];
}

export interface FoldedDuplicate {
  /** The dropped record's uuid. */
  uuid: string;
  /** The earlier record it repeats. */
  sameAs: string;
}

export interface AlternativeReply {
  /** First record of the abandoned attempt. */
  uuid: string;
  /** The prompt (or step) it answered, which another reply continues. */
  parentUuid: string;
}

/** Rule 1: drops repeated records, re-parenting onto the first copy. */
export function foldDuplicateChains<T extends LongTailRecord>(
  mapped: readonly T[],
): { kept: T[]; folded: FoldedDuplicate[] } {
  const sameAs = new Map<string, string>();
  /** Parent → the first records written below it, per stamp. */
  const groups = new Map<string | null, ParentGroups<T>>();
  const kept: T[] = [];
  const folded: FoldedDuplicate[] = [];
  for (const entry of mapped) {
    const { record } = entry;
    // Most files fold nothing: no lookups until something is folded.
    if (sameAs.size > 0 && sameAs.has(record.uuid)) continue;
    const parent =
      record.parentUuid === null || sameAs.size === 0
        ? record.parentUuid
        : (sameAs.get(record.parentUuid) ?? record.parentUuid);
    if (parent !== record.parentUuid) {
      entry.source.originalParentUuid ??= record.parentUuid;
      record.parentUuid = parent;
    }
    const first = record.timestamp === '' ? undefined : repeatedRecord(groups, entry, parent);
    if (first !== undefined) {
      sameAs.set(record.uuid, first);
      folded.push({ uuid: record.uuid, sameAs: first });
      continue;
    }
    kept.push(entry);
  }
  // A child written before the copy it hangs on was folded (rare) is moved now.
  if (sameAs.size === 0) return { kept, folded };
  for (const { record, source } of kept) {
    const to = record.parentUuid === null ? undefined : sameAs.get(record.parentUuid);
    if (to === undefined) continue;
    source.originalParentUuid ??= record.parentUuid;
    record.parentUuid = to;
  }
  return { kept, folded };
}

/** The first record written under one parent and stamp, then every content seen there. */
interface StampGroup<T> {
  first: T;
  byContent?: Map<string, string>;
  /** The group of another stamp under the same parent. */
  next: StampGroup<T> | undefined;
}

/**
 * The records written under one parent: a chain of groups, one per stamp, searched by building
 * stamp keys as they are compared (most parents have one or two children, and no key is kept);
 * a parent with more than CHAINED_STAMPS stamps gets a map, so the pass stays linear.
 */
interface ParentGroups<T> {
  chain: StampGroup<T>;
  stamps: number;
  byStamp?: Map<string, StampGroup<T>>;
}

const CHAINED_STAMPS = 8;

/** (type, subtype, sidechain, timestamp) of a record with a timestamp. */
function stampKey({ record, source }: LongTailRecord): string {
  return `${source.type}\u0000${source.subtype ?? ''}\u0000${source.isSidechain}\u0000${record.timestamp}`;
}

/** The uuid of an earlier record this one (with a timestamp) repeats, registering it otherwise. */
function repeatedRecord<T extends LongTailRecord>(
  groups: Map<string | null, ParentGroups<T>>,
  entry: T,
  parent: string | null,
): string | undefined {
  const below = groups.get(parent);
  if (below === undefined) {
    groups.set(parent, { chain: { first: entry, next: undefined }, stamps: 1 });
    return undefined;
  }
  const stamp = stampKey(entry);
  const group = groupWithStamp(below, stamp);
  if (group === undefined) {
    addGroup(below, entry, stamp);
    return undefined;
  }
  const uuid = entry.record.uuid;
  if (group.first.record.uuid === uuid) return undefined;
  group.byContent ??= new Map([[contentKey(group.first), group.first.record.uuid]]);
  const content = contentKey(entry);
  const earlier = group.byContent.get(content);
  if (earlier !== undefined && earlier !== uuid) return earlier;
  if (earlier === undefined) group.byContent.set(content, uuid);
  return undefined;
}

function groupWithStamp<T extends LongTailRecord>(
  below: ParentGroups<T>,
  stamp: string,
): StampGroup<T> | undefined {
  if (below.byStamp !== undefined) return below.byStamp.get(stamp);
  for (let group: StampGroup<T> | undefined = below.chain; group !== undefined; group = group.next)
    if (stampKey(group.first) === stamp) return group;
  return undefined;
}

function addGroup<T extends LongTailRecord>(below: ParentGroups<T>, first: T, stamp: string): void {
  if (below.byStamp !== undefined) {
    below.byStamp.set(stamp, { first, next: undefined });
    return;
  }
  below.chain = { first, next: below.chain };
  if (++below.stamps <= CHAINED_STAMPS) return;
  below.byStamp = new Map();
  for (let group: StampGroup<T> | undefined = below.chain; group !== undefined; group = group.next)
    below.byStamp.set(stampKey(group.first), group);
}

/** The content as written: the message's, or the record's own when it has no message. */
function contentKey({ json }: LongTailRecord): string {
  const value = JSON.parse(json) as JsonObject;
  const message = isJsonObject(value.message) ? value.message : undefined;
  return JSON.stringify((message === undefined ? value.content : message.content) ?? null);
}

/** Where each uuid's first record is; built once, when folding has settled the uuids. */
export interface UuidIndex {
  /** Each uuid → the index of its first record in `mapped`. */
  readonly indexOf: ReadonlyMap<string, number>;
  /** Per index: the index of the first record with its uuid. */
  readonly first: Int32Array;
}

/**
 * One map operation per record: set from the last record to the first leaves each uuid at its
 * first index. Only when a uuid repeats (the map did not grow) is each first index looked up.
 */
export function uuidIndex(mapped: readonly LongTailRecord[]): UuidIndex {
  const indexOf = new Map<string, number>();
  const first = new Int32Array(mapped.length);
  for (let index = mapped.length - 1; index >= 0; index--) {
    indexOf.set(mapped[index]!.record.uuid, index);
    first[index] = index;
  }
  if (indexOf.size < mapped.length)
    for (let index = 0; index < mapped.length; index++)
      first[index] = indexOf.get(mapped[index]!.record.uuid)!;
  return { indexOf, first };
}

/** parentIndices of a record whose parent is null. */
export const NO_PARENT = -1;
/** parentIndices of a record whose parent is not in the file. */
export const MISSING_PARENT = -2;

/**
 * Per index: the index of its parent's first record, else NO_PARENT or MISSING_PARENT. The
 * passes that move parents keep it in step with `parentUuid`, so each parent is looked up once.
 */
export function parentIndices(mapped: readonly LongTailRecord[], { indexOf, first }: UuidIndex): Int32Array {
  const parentOf = new Int32Array(mapped.length);
  for (let index = 0; index < mapped.length; index++) {
    const { parentUuid } = mapped[index]!.record;
    if (parentUuid === null) parentOf[index] = NO_PARENT;
    // Most records continue the one written just before them: that saves a lookup.
    else if (index > 0 && parentUuid === mapped[index - 1]!.record.uuid) parentOf[index] = first[index - 1]!;
    else parentOf[index] = indexOf.get(parentUuid) ?? MISSING_PARENT;
  }
  return parentOf;
}

/** A record whose parent was never written, joined below another (a repair, listed). */
export interface JoinedOrphan {
  line: number;
  uuid: string;
  missingParentUuid: string;
  joinedTo: string;
}

/**
 * Rule 5: records whose parent is not in the file (MISSING_PARENT in `parentOf`, parentIndices)
 * are joined to the record written just before them on their side (main or sidechain); a tool
 * result to the record holding its tool_use first. Writers lose parents where they lose a record
 * (a final assistant record never flushed below a `turn_duration`, an assistant record after a
 * run of uuid-less `queue-operation` records, a resumed agent run): what was written before is
 * what the record followed. The first record of a side has nothing before it and keeps its
 * missing parent (a file continuing another). Later copies of a uuid follow its first copy.
 * `parentOf` is kept in step.
 */
export function attachOrphanRecords(
  mapped: readonly LongTailRecord[],
  { indexOf, first }: UuidIndex,
  parentOf: Int32Array,
  isSubagentFile: boolean,
): JoinedOrphan[] {
  // Built on the first orphan only: most files have none.
  let toolHolder: Map<string, string> | undefined;
  /** First copy's uuid → the parent it was given. */
  const attached = new Map<string, JoinedOrphan>();
  const joined: JoinedOrphan[] = [];
  /** The last uuid written on each side (0 main, 1 sidechain). */
  const previous: (string | undefined)[] = [undefined, undefined];
  for (let index = 0; index < mapped.length; index++) {
    const { record, source, toolResultIds } = mapped[index]!;
    const parent = record.parentUuid;
    const side = source.isSidechain ? 1 : 0;
    if (parent !== null && parentOf[index] === MISSING_PARENT) {
      let to: string | undefined;
      if (first[index] !== index) to = attached.get(record.uuid)?.joinedTo;
      else {
        if (record.type === 'tool_result') {
          toolHolder ??= toolHolders(mapped);
          for (const id of toolResultIds) to ??= toolHolder.get(id);
        }
        to ??= previous[side];
      }
      if (to !== undefined && to !== record.uuid) {
        source.originalParentUuid ??= parent;
        record.parentUuid = to;
        parentOf[index] = indexOf.get(to)!;
        if (!attached.has(record.uuid)) {
          const join = { line: source.line, uuid: record.uuid, missingParentUuid: parent, joinedTo: to };
          attached.set(record.uuid, join);
          joined.push(join);
        }
      }
    }
    previous[side] = record.uuid;
  }
  // A first copy that names a parent never written, where a later copy names one in the file
  // (a resumed agent run writes its history again), takes the later copy's parent.
  if (!isSubagentFile) return joined;
  const laterParent = new Map<string, string>();
  mapped.forEach(({ record }, index) => {
    const parent = record.parentUuid;
    if (first[index] !== index && parent !== null && parentOf[index]! >= 0)
      if (!laterParent.has(record.uuid)) laterParent.set(record.uuid, parent);
  });
  if (laterParent.size === 0) return joined;
  mapped.forEach(({ record }, index) => {
    const later = laterParent.get(record.uuid);
    const join = attached.get(record.uuid);
    if (later === undefined || first[index] !== index || join === undefined) return;
    record.parentUuid = later;
    parentOf[index] = indexOf.get(later)!;
    join.joinedTo = later;
  });
  return joined;
}

/** Each tool_use id → the first record holding it. */
function toolHolders(mapped: readonly LongTailRecord[]): Map<string, string> {
  const holder = new Map<string, string>();
  for (const { record, toolUseIds } of mapped)
    for (const id of toolUseIds) if (!holder.has(id)) holder.set(id, record.uuid);
  return holder;
}

/** The parent forest of the records once their parents are final, shared by rules 2 and 4. */
export interface ParentForest {
  /**
   * Indices of `mapped` with every parent before its children (a preorder, first records of a
   * uuid only; records on a parent cycle last, in physical order). Re-parenting (fan-out joins,
   * folds) can hang a record below one written after it, so physical order is not enough.
   */
  readonly order: readonly number[];
  /** Per index: the index of the first record with its uuid. */
  readonly first: Int32Array;
  /** Per index: the index of its parent's first record, or -1 when the parent is not in the file. */
  readonly parent: Int32Array;
  /** Per index: 1 for a sidechain record, 0 for the main conversation. */
  readonly sidechain: Uint8Array;
}

/**
 * Linear: one children table, one explicit stack; `first` from uuidIndex, `parents` from
 * parentIndices.
 */
export function parentsFirstForest(
  mapped: readonly LongTailRecord[],
  first: Int32Array,
  parents: Int32Array,
): ParentForest {
  const size = mapped.length;
  const parentOf = new Int32Array(size);
  const sidechain = new Uint8Array(size);
  for (let index = 0; index < size; index++) {
    parentOf[index] = Math.max(parents[index]!, -1);
    sidechain[index] = mapped[index]!.source.isSidechain ? 1 : 0;
  }
  const firstChild = new Int32Array(size).fill(-1);
  const nextSibling = new Int32Array(size).fill(-1);
  const roots: number[] = [];
  for (let index = size - 1; index >= 0; index--) {
    if (first[index] !== index) continue;
    const parent = parentOf[index]!;
    if (parent < 0 || parent === index) roots.push(index);
    else {
      nextSibling[index] = firstChild[parent]!;
      firstChild[parent] = index;
    }
  }
  const order: number[] = [];
  const seen = new Uint8Array(size);
  const stack = roots.reverse();
  // Children are pushed in reverse through one scratch array, so none is allocated per record.
  const scratch: number[] = [];
  while (stack.length > 0) {
    const index = stack.pop()!;
    seen[index] = 1;
    order.push(index);
    scratch.length = 0;
    for (let child = firstChild[index]!; child >= 0; child = nextSibling[child]!) scratch.push(child);
    for (let i = scratch.length - 1; i >= 0; i--) stack.push(scratch[i]!);
  }
  for (let index = 0; index < size; index++)
    if (seen[index] === 0 && first[index] === index) order.push(index);
  return { order, first, parent: parentOf, sidechain };
}

const THINKING_ONLY = 'thinking-only attempt';
/** System records a dead-end branch may hold (rule 6); any other one leads on. */
const BOOKKEEPING_SUBTYPES: ReadonlySet<string> = new Set([
  NEUTRAL_SUBTYPE,
  RecordSubtype.commandOutput,
  RecordSubtype.meta,
]);

export function makeNeutral(record: ChatRecord, source: ClaudeCodeSource, reason: string): void {
  record.type = 'system';
  record.subtype = NEUTRAL_SUBTYPE;
  source.neutralBecause = reason;
}

export function isNeutral(record: ChatRecord): boolean {
  return record.type === 'system' && record.subtype === NEUTRAL_SUBTYPE;
}

function hasVisibleText(record: ChatRecord): boolean {
  return assistantTextFragments(record).some((text) => text.trim() !== '');
}

function isAttempt(record: ChatRecord): boolean {
  return (
    record.type === 'assistant' &&
    !(record.message?.parts ?? []).some((part) => part.functionCall !== undefined)
  );
}

/** Rule 2: dead assistant attempts. Returns the visible-text attempts kept as alternatives. */
export function settleAbandonedAttempts(
  mapped: readonly LongTailRecord[],
  { order, parent: parentOf }: ParentForest,
): AlternativeReply[] {
  const size = mapped.length;
  // Indexed by a uuid's first record.
  const keptBelow = new Uint8Array(size);
  // The last error and the last visible attempt written in each subtree (physical index, -1 when
  // none): an attempt is cut by an error only when no visible text was streamed after it.
  const lastErrorBelow = new Int32Array(size).fill(-1);
  const lastVisibleBelow = new Int32Array(size).fill(-1);
  const childCount = new Int32Array(size);
  /** Per first record: an attempt, as it was written (the second sweep makes some neutral). */
  const isAttemptAt = new Uint8Array(size);
  for (const parent of parentOf) if (parent >= 0) childCount[parent]!++;
  // Children before parents: one sweep of the reversed order sees every child first.
  for (let i = order.length - 1; i >= 0; i--) {
    const index = order[i]!;
    const { record, isApiError } = mapped[index]!;
    const parent = parentOf[index]!;
    const attempt = isAttempt(record);
    if (attempt) isAttemptAt[index] = 1;
    if (isApiError) lastErrorBelow[index] = Math.max(lastErrorBelow[index]!, index);
    if (attempt && hasVisibleText(record))
      lastVisibleBelow[index] = Math.max(lastVisibleBelow[index]!, index);
    if (parent < 0) continue;
    if ((!isNeutral(record) && !attempt) || keptBelow[index] === 1) keptBelow[parent] = 1;
    lastErrorBelow[parent] = Math.max(lastErrorBelow[parent]!, lastErrorBelow[index]!);
    lastVisibleBelow[parent] = Math.max(lastVisibleBelow[parent]!, lastVisibleBelow[index]!);
  }

  const DROP = 1;
  const ALTERNATIVE = 2;
  const decision = new Uint8Array(size);
  const alternatives: AlternativeReply[] = [];
  for (const index of order) {
    // Neutral records inside a dead attempt inherit nothing: they are neutral already.
    if (isAttemptAt[index] === 0 || keptBelow[index] === 1) continue;
    const { record, source } = mapped[index]!;
    const parent = parentOf[index]!;
    let choice = parent >= 0 ? decision[parent]! : 0;
    if (choice === 0) {
      const visible = lastVisibleBelow[index]! >= 0;
      if (!visible) choice = DROP;
      else if (
        lastErrorBelow[index]! > lastVisibleBelow[index]! &&
        parent >= 0 &&
        childCount[parent]! >= 2 &&
        keptBelow[parent] === 1
      ) {
        choice = ALTERNATIVE;
        alternatives.push({ uuid: record.uuid, parentUuid: record.parentUuid! });
      }
    }
    if (choice === 0) continue;
    decision[index] = choice;
    makeNeutral(record, source, choice === DROP ? THINKING_ONLY : 'retried reply');
  }
  return alternatives;
}

/** Rule 3: command output that answers no command. */
export function neutralizeStrayCommandOutput(mapped: readonly LongTailRecord[]): void {
  const commands = new Set<string>();
  for (const { record, source } of mapped) {
    if (record.systemPayload?.command !== undefined) commands.add(record.uuid);
    const isOutput = record.type === 'system' && record.subtype === RecordSubtype.commandOutput;
    if (!isOutput || source.type !== 'system') continue;
    if (record.parentUuid === null || !commands.has(record.parentUuid))
      makeNeutral(record, source, 'command output beside the conversation');
  }
}

/**
 * Rule 4: trees without a reply: those holding no plain prompt (a local command on its own,
 * whether or not another tree has a reply) and, when another tree has one, those written wholly
 * before the first answered tree (an orphan at the head of the file). A re-asked prompt written
 * later stays a leaf. Sidechain and main
 * records are judged apart (a link between them is cut), each against its own answered trees.
 */
export function neutralizeUnansweredTrees(
  mapped: readonly LongTailRecord[],
  { order, first, parent: parentOf, sidechain }: ParentForest,
): void {
  const size = mapped.length;
  const rootOf = new Int32Array(size).fill(-1);
  for (const index of order) {
    const parent = parentOf[index]!;
    const sameSide = parent >= 0 && sidechain[parent] === sidechain[index];
    rootOf[index] = sameSide && rootOf[parent]! >= 0 ? rootOf[parent]! : index;
  }
  const rootOfRecord = (index: number) => rootOf[first[index]!]!;
  const answered = new Uint8Array(size);
  const prompted = new Uint8Array(size);
  for (let index = 0; index < size; index++) {
    const { record } = mapped[index]!;
    const root = rootOfRecord(index);
    if (record.type === 'assistant') answered[root] = 1;
    if (record.type === 'user' && record.systemPayload?.command === undefined) prompted[root] = 1;
  }
  /** Per side (0 main, 1 sidechain): the last record of an answered tree, or -1. */
  const lastAnswered = [-1, -1];
  /** Per side: whether a tree holds both a prompt and a reply (a conversation). */
  const hasConversation = [false, false];
  /** Per root: the first record of its tree. */
  const firstIndex = new Int32Array(size).fill(-1);
  for (let index = 0; index < size; index++) {
    const side = sidechain[index]!;
    const root = rootOfRecord(index);
    if (firstIndex[root]! < 0) firstIndex[root] = index;
    if (answered[root] === 1) lastAnswered[side] = index;
    if (answered[root] === 1 && prompted[root] === 1) hasConversation[side] = true;
  }
  for (let index = 0; index < size; index++) {
    const { record, source } = mapped[index]!;
    const side = sidechain[index]!;
    const last = lastAnswered[side]!;
    const root = rootOfRecord(index);
    if (isNeutral(record)) continue;
    // Replies without a prompt (the copied end of another session's run at the head of the
    // file) beside a conversation are none; alone in their file they are what there is.
    if (answered[root] === 1) {
      if (prompted[root] === 0 && hasConversation[side] === true)
        makeNeutral(record, source, 'replies without a prompt beside the conversation');
      continue;
    }
    // With no answered tree, a tree holding a prompt is the conversation; one holding only
    // local commands (a `/login` on its own) is still none. An unanswered prompt an answered
    // tree goes on after (a draft withdrawn, an orphan at the head) is none either; one asked
    // after the last answer is the conversation's open end.
    if (prompted[root] === 1 && (last < 0 || firstIndex[root]! > last)) continue;
    makeNeutral(record, source, 'no reply in this tree');
  }
}

/**
 * Rule 6: dead ends beside the conversation. Below a record where one branch leads on (it holds
 * a reply, or a prompt that was not abandoned), a branch that does not is no conversation: an
 * `/exit` written after a local-command caveat from which the session was later resumed, a
 * tool result left beside a local command through which the conversation goes on, a prompt
 * whose only answer was a thinking-only attempt (rule 2) before the session was resumed above
 * it. Only Claude Code's bookkeeping can be dead (tool results, local commands and their output,
 * meta records, neutral records): a branch holding any other system record (a rewind) leads on,
 * as the inspector keeps it. Its records become neutral, so the leaf collapses into the branch point.
 * A branch that is the only one below its parent (a tail `/exit`) is left as it is. Sidechain
 * and main records are judged apart, as in rule 4.
 */
export function neutralizeDeadEndBranches(
  mapped: readonly LongTailRecord[],
  { order, first, parent: parentOf, sidechain }: ParentForest,
): void {
  const size = mapped.length;
  const sameSideParent = (index: number) => {
    const parent = parentOf[index]!;
    return parent >= 0 && sidechain[parent] === sidechain[index] ? parent : -1;
  };
  const REPLY = 1;
  const PROMPT = 2;
  const ABANDONED = 4;
  const SIGNIFICANT = 8;
  const below = new Uint8Array(size);
  const leadsOn = (index: number) =>
    (below[index]! & (REPLY | SIGNIFICANT)) !== 0 || (below[index]! & (PROMPT | ABANDONED)) === PROMPT;
  const leadingChildren = new Int32Array(size);
  for (let i = order.length - 1; i >= 0; i--) {
    const index = order[i]!;
    const { record, source } = mapped[index]!;
    if (record.type === 'assistant') below[index]! |= REPLY;
    if (record.type === 'user' && record.systemPayload?.command === undefined) below[index]! |= PROMPT;
    if (source.neutralBecause === THINKING_ONLY) below[index]! |= ABANDONED;
    if (record.type === 'system' && !BOOKKEEPING_SUBTYPES.has(record.subtype ?? ''))
      below[index]! |= SIGNIFICANT;
    const parent = sameSideParent(index);
    if (parent < 0) continue;
    below[parent]! |= below[index]!;
    if (leadsOn(index)) leadingChildren[parent]!++;
  }
  const dead = new Uint8Array(size);
  for (const index of order) {
    const parent = sameSideParent(index);
    if (parent < 0) continue;
    if (dead[parent] === 1 || (!leadsOn(index) && leadingChildren[parent]! > 0)) dead[index] = 1;
  }
  for (let index = 0; index < size; index++) {
    const { record, source } = mapped[index]!;
    if (dead[first[index]!] === 1 && !isNeutral(record))
      makeNeutral(record, source, 'dead end beside the conversation');
  }
}
