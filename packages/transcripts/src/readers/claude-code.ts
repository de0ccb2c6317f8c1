// Claude Code JSONL mapped onto ChatRecord (docs/branching.md, "The transcript inspector's rules").
//
// - Content blocks become parts (see claude-code-content.ts); a user record holding only
//   tool_result blocks becomes a `tool_result` record. Compaction summaries and meta user
//   records (isCompactSummary, isMeta) are system-written, so they become significant system
//   records (`compact_summary`, `meta`) instead of user prompts.
// - Slash-command wrappers become what the user saw (claude-code-commands.ts): the command is a
//   prompt whose text is `/x a`, its output a `command_output` system record, Esc a
//   `interrupted` system record. Neither is a prompt.
// - Progress, attachment and hook/stop records are neutral: they become system records with the
//   neutral subtype `session_artifact_event`, the inspector's own vocabulary for "metadata that
//   may trail a conversation without being one", so a run of them at a tail collapses into the
//   conversation above instead of creating a false leaf. Their Claude Code type is kept in
//   `claudeCode.type`.
// - Parallel tool-call fan-out is re-chained into one logical step (claude-code-tool-fanout.ts).
// - A compaction boundary starts a new root (parentUuid null) and names the record it continues
//   in `logicalParentUuid`; it is joined to that record when it is in the file. Either way it is
//   listed in `compactions` (a divider for the importer), never as a diagnostic.
// - Sidechain (sub-agent) records are returned apart from the main conversation.
// - Records without a uuid (summary, file-history-snapshot, queue-operation …) carry no
//   topology and are skipped.
import { MAX_NESTING_DEPTH } from '../limits';
import { RecordSubtype } from '../record-kind';
import type { ChatMessage, ChatPart, ChatRecord, ChatRecordType, SystemPayload } from '../types';
import { isInterruptionText, readCommandText, type CommandText } from './claude-code-commands';
import { mapContent, type MappedContent } from './claude-code-content';
import {
  attachOrphanRecords,
  foldDuplicateChains,
  neutralizeDeadEndBranches,
  neutralizeStrayCommandOutput,
  neutralizeUnansweredTrees,
  NEUTRAL_SUBTYPE,
  parentIndices,
  parentsFirstForest,
  settleAbandonedAttempts,
  uuidIndex,
  type LongTailRecord,
} from './claude-code-long-tail';
import { keepDistinctLines, rehangCarriedPrompts } from './claude-code-conversations';
import { linearizeToolFanOut, NOT_REPARENTED, type FanOutKind } from './claude-code-tool-fanout';
import { isJsonObject, JsonlReader, stringField, type JsonObject } from './jsonl';
import { ReadState, UNLIMITED_BUDGET } from './read-state';
import type { ClaudeCodeSource, CompactionMark, ReadOptions, TranscriptReadResult } from './types';

export type { ClaudeCodeSource } from './types';

/** Where a mapped record came from. */
const NEUTRAL_TYPES: ReadonlySet<string> = new Set(['progress', 'attachment']);
const NEUTRAL_SYSTEM_SUBTYPES: ReadonlySet<string> = new Set([
  'stop_hook_summary',
  'turn_duration',
  'informational',
  'away_summary',
  'api_error',
  'bridge_status',
  'microcompact_boundary',
]);
const CHAIN_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', 'system', ...NEUTRAL_TYPES]);
/** Metadata records that never carry a uuid; skipped without a diagnostic. */
const METADATA_TYPES: ReadonlySet<string> = new Set([
  'summary',
  'custom-title',
  'ai-title',
  'agent-name',
  'tag',
  'last-prompt',
  'pr-link',
  'file-history-snapshot',
  'queue-operation',
  'fork-context-ref',
  'permission-mode',
  'mode',
]);

interface MappedRecord extends LongTailRecord {
  /** What the record is to the tool fan-out. */
  kind: FanOutKind;
  logicalParentUuid: string | undefined;
}

export function parseClaudeCodeJsonl(text: string, options: ReadOptions = {}): TranscriptReadResult {
  return readClaudeCodeJsonl(
    text,
    options,
    new ReadState({ ...UNLIMITED_BUDGET, maxNestingDepth: options.maxNestingDepth ?? MAX_NESTING_DEPTH }),
  );
}

/** Stops at the first refusal recorded in `state`; the partial result is then meaningless. */
export function readClaudeCodeJsonl(
  text: string,
  options: ReadOptions,
  state: ReadState,
): TranscriptReadResult {
  const mapped: MappedRecord[] = [];
  const toolNames = new Map<string, string>();
  /** Record types this reader does not know, with how many lines held each (not damage). */
  const skippedTypes = new Map<string, number>();

  const lines = new JsonlReader(text, options);
  for (let item = lines.next(); item !== undefined; item = lines.next()) {
    const value = state.valueOf(item);
    if (state.isRefused) break;
    if (value === undefined) continue;
    const type = stringField(value, 'type') ?? '';
    const isKnown = CHAIN_TYPES.has(type) || METADATA_TYPES.has(type);
    // A well-formed line of a type written by a newer client is skipped and counted, never
    // reported as an unreadable line; one that carries a uuid still takes its place in the tree.
    if (!isKnown) skippedTypes.set(type, (skippedTypes.get(type) ?? 0) + 1);
    if (METADATA_TYPES.has(type) || (!isKnown && typeof value.uuid !== 'string')) continue;
    const result = mapRecord(value, lines.objectText, item.line, type, toolNames);
    if (typeof result === 'string') {
      state.diagnostics.push({ kind: 'invalid-record', line: item.line, reason: result });
      continue;
    }
    if (!state.admitRecord(item.line)) break;
    mapped.push(result);
  }

  const { kept, folded } = foldDuplicateChains(mapped);
  // A subagent file: every record is a sidechain; it is read as its one conversation.
  const isSubagentFile = kept.length > 0 && kept.every((entry) => entry.source.isSidechain);
  // The uuids are settled once folding is done; only parents move from here on, each pass
  // that moves one keeping `parentOf` in step.
  const uuids = uuidIndex(kept);
  const { indexOf, first } = uuids;
  const compactions = joinCompactionRoots(kept, indexOf);
  const parentOf = parentIndices(kept, uuids);
  const joinedOrphans = attachOrphanRecords(kept, uuids, parentOf, isSubagentFile);
  const joinedBelow = linearizeToolFanOut(kept, first, parentOf);
  // Later copies of a uuid move with it only when they agree with its first record, so a
  // conflicting parent stays visible to the inspector. Backwards, so that each first record
  // still has the parent it had in the fan-out when its later copies compare with it.
  for (let index = kept.length - 1; index >= 0; index--) {
    const to = joinedBelow[first[index]!]!;
    if (to === NOT_REPARENTED) continue;
    const { record, source } = kept[index]!;
    if (record.parentUuid !== kept[first[index]!]!.record.parentUuid) continue;
    source.originalParentUuid ??= record.parentUuid;
    record.parentUuid = kept[to]!.record.uuid;
    parentOf[index] = first[to]!;
  }

  let forest = parentsFirstForest(kept, first, parentOf);
  if (rehangCarriedPrompts(kept, forest) > 0)
    forest = parentsFirstForest(kept, first, parentIndices(kept, uuids));

  // The parents are final: the rules below only make records neutral, so they share one forest.
  const alternativeReplies = settleAbandonedAttempts(kept, forest);
  neutralizeStrayCommandOutput(kept);
  neutralizeDeadEndBranches(kept, forest);
  neutralizeUnansweredTrees(kept, forest);
  keepDistinctLines(kept, forest);

  // In a subagent file, all records are sidechains and read as the conversation.
  const records: ChatRecord[] = [];
  const sidechainRecords: ChatRecord[] = [];
  for (const { record, source } of kept)
    (source.isSidechain && !isSubagentFile ? sidechainRecords : records).push(record);
  return {
    records,
    sidechainRecords,
    diagnostics: state.diagnostics.items,
    diagnosticCount: state.diagnostics.count,
    compactions,
    ...(folded.length > 0 && { foldedDuplicates: folded }),
    ...(alternativeReplies.length > 0 && { alternativeReplies }),
    ...(isSubagentFile && { isSubagentFile }),
    ...(joinedOrphans.length > 0 && { joinedOrphans }),
    ...(skippedTypes.size > 0 && {
      skippedRecordTypes: [...skippedTypes].map(([recordType, count]) => ({ recordType, count })),
    }),
  };
}

function mapRecord(
  value: JsonObject,
  json: string,
  line: number,
  type: string,
  toolNames: Map<string, string>,
): MappedRecord | string {
  const { uuid, parentUuid } = value;
  if (typeof uuid !== 'string' || uuid === '') return 'uuid is not a non-empty string';
  if (parentUuid !== null && parentUuid !== undefined && typeof parentUuid !== 'string') {
    return 'parentUuid is neither a string nor null';
  }
  const subtype = stringField(value, 'subtype');
  const message = isJsonObject(value.message) ? value.message : undefined;
  const messageId = message === undefined ? undefined : stringField(message, 'id');
  const source = sourceOf(line, type, subtype, messageId, value.isSidechain === true);
  const base: RecordBase = {
    uuid,
    parentUuid: parentUuid ?? null,
    sessionId: stringField(value, 'sessionId') ?? '',
    timestamp: stringField(value, 'timestamp') ?? '',
    claudeCode: source,
  };
  const content = mapContent(message?.content, toolNames);
  const isApiError =
    (type === 'system' && subtype === 'api_error') || (type === 'assistant' && isSyntheticApiError(value));
  const { record, kind } = chatRecordOf(value, base, subtype, content, isApiError);
  return {
    record,
    source,
    json,
    isApiError,
    toolUseIds: content.toolUseIds,
    toolResultIds: content.toolResultIds,
    kind,
    logicalParentUuid: stringField(value, 'logicalParentUuid'),
  };
}

/** The record a line becomes, and what it is to the tool fan-out. */
function chatRecordOf(
  value: JsonObject,
  base: RecordBase,
  subtype: string | undefined,
  content: MappedContent,
  isApiError: boolean,
): { record: ChatRecord; kind: FanOutKind } {
  const type = base.claudeCode.type;
  if (type === 'assistant' && isApiError) {
    base.claudeCode.neutralBecause = 'synthetic API error reply';
    const message = { role: 'assistant', parts: content.parts };
    return { record: chatRecord(base, 'system', NEUTRAL_SUBTYPE, message), kind: 'neutral' };
  }
  if (type === 'assistant') {
    const message = { role: 'assistant', parts: content.parts };
    return { record: chatRecord(base, 'assistant', undefined, message), kind: 'assistant' };
  }
  if (type === 'user') {
    const message = { role: 'user', parts: content.parts };
    if (value.isCompactSummary === true) {
      const record = chatRecord(base, 'system', RecordSubtype.compactSummary, message);
      return { record, kind: 'continuation' };
    }
    if (value.isMeta === true)
      return { record: chatRecord(base, 'system', RecordSubtype.meta, message), kind: 'continuation' };
    if (content.isOnlyToolResults)
      return { record: chatRecord(base, 'tool_result', undefined, message), kind: 'result' };
    const text = plainText(content.parts);
    if (text !== undefined && isInterruptionText(text)) {
      const record = chatRecord(base, 'system', RecordSubtype.interrupted, message);
      return { record, kind: 'continuation' };
    }
    const command = text === undefined ? undefined : readCommandText(text);
    if (command !== undefined) {
      const otherParts = content.parts.filter((part) => typeof part.text !== 'string');
      return { record: commandRecord(base, command, otherParts), kind: 'continuation' };
    }
    return { record: chatRecord(base, 'user', undefined, message), kind: 'continuation' };
  }
  const systemContent = value.content;
  // Newer Claude Code writes slash commands and their output as `local_command` system records.
  const systemCommand =
    type === 'system' && typeof systemContent === 'string' ? readCommandText(systemContent) : undefined;
  if (systemCommand !== undefined)
    return { record: commandRecord(base, systemCommand, []), kind: 'continuation' };
  if (type === 'system' && subtype !== undefined && !isNeutralSystemSubtype(subtype)) {
    const compaction = subtype === RecordSubtype.compactBoundary ? compactionMetadata(value) : undefined;
    const systemPayload: SystemPayload = {};
    if (typeof systemContent === 'string') systemPayload.content = systemContent;
    if (compaction !== undefined) systemPayload.compaction = compaction;
    const hasPayload = Object.keys(systemPayload).length > 0;
    return {
      record: chatRecord(base, 'system', subtype, undefined, hasPayload ? systemPayload : undefined),
      kind: 'continuation',
    };
  }
  return { record: chatRecord(base, 'system', NEUTRAL_SUBTYPE), kind: 'neutral' };
}

type RecordBase = Pick<ChatRecord, 'uuid' | 'parentUuid' | 'sessionId' | 'timestamp'> & {
  claudeCode: ClaudeCodeSource;
};

/**
 * A record's keys in one order: the base's, then type, subtype, message, systemPayload, each
 * optional one only when set. Never `{ ...base, type }`: V8 gives every object made by spreading
 * into a literal a hidden class of its own, and then every pass that reads the records misses its
 * inline caches on every property. The shapes nearly every record has are whole literals, so
 * their keys sit in the object itself (a key added to a literal afterwards is stored in an
 * array of its own, one more object per record for the garbage collector).
 */
function chatRecord(
  base: RecordBase,
  type: ChatRecordType,
  subtype?: string,
  message?: ChatMessage,
  systemPayload?: SystemPayload,
): ChatRecord {
  const { uuid, parentUuid, sessionId, timestamp, claudeCode } = base;
  if (systemPayload === undefined && message !== undefined) {
    return subtype === undefined
      ? { uuid, parentUuid, sessionId, timestamp, claudeCode, type, message }
      : { uuid, parentUuid, sessionId, timestamp, claudeCode, type, subtype, message };
  }
  if (systemPayload === undefined && subtype !== undefined)
    return { uuid, parentUuid, sessionId, timestamp, claudeCode, type, subtype };
  const record: ChatRecord = { uuid, parentUuid, sessionId, timestamp, claudeCode, type };
  if (subtype !== undefined) record.subtype = subtype;
  if (message !== undefined) record.message = message;
  if (systemPayload !== undefined) record.systemPayload = systemPayload;
  return record;
}

/** Where a record came from; optional keys only when set, in one order (see chatRecord). */
function sourceOf(
  line: number,
  type: string,
  subtype: string | undefined,
  messageId: string | undefined,
  isSidechain: boolean,
): ClaudeCodeSource {
  if (subtype !== undefined && messageId !== undefined)
    return { line, type, subtype, messageId, isSidechain };
  if (subtype !== undefined) return { line, type, subtype, isSidechain };
  if (messageId !== undefined) return { line, type, messageId, isSidechain };
  return { line, type, isSidechain };
}

/** A command is the user's prompt, shown as `/x a`; its output is a `command_output` record. */
function commandRecord(base: RecordBase, command: CommandText, otherParts: ChatPart[]): ChatRecord {
  const { displayText } = command;
  const message = { role: 'user', parts: [{ text: displayText }, ...otherParts] };
  if (command.kind === 'output') {
    const systemPayload = { displayText, commandOutput: command.output };
    return chatRecord(base, 'system', RecordSubtype.commandOutput, message, systemPayload);
  }
  return chatRecord(base, 'user', undefined, message, { displayText, command: command.command });
}

/** The text parts of a user message joined, or undefined when it has none. */
function plainText(parts: readonly ChatPart[]): string | undefined {
  const texts = parts.filter((part) => typeof part.text === 'string' && part.thought !== true);
  return texts.length === 0 ? undefined : texts.map((part) => part.text).join('\n');
}

interface CompactionMetadata {
  trigger?: string;
  preTokens?: number;
}

function compactionMetadata(value: JsonObject): CompactionMetadata {
  const metadata = isJsonObject(value.compactMetadata) ? value.compactMetadata : {};
  const trigger = stringField(metadata, 'trigger');
  const preTokens = metadata.preTokens;
  return {
    ...(trigger !== undefined && { trigger }),
    ...(typeof preTokens === 'number' && Number.isFinite(preTokens) && { preTokens }),
  };
}

/** The reply Claude Code writes itself when a request fails ("API Error: 524 …"). */
function isSyntheticApiError(value: JsonObject): boolean {
  if (value.isApiErrorMessage === true) return true;
  const message = isJsonObject(value.message) ? value.message : undefined;
  if (message === undefined || stringField(message, 'model') !== '<synthetic>') return false;
  const content = message.content;
  const first = Array.isArray(content) ? (content[0] as unknown) : content;
  const text =
    typeof first === 'string' ? first : isJsonObject(first) ? stringField(first, 'text') : undefined;
  return text !== undefined && text.startsWith('API Error');
}

/** Hook and stop bookkeeping; a system record without a subtype says nothing either. */
function isNeutralSystemSubtype(subtype: string): boolean {
  return NEUTRAL_SYSTEM_SUBTYPES.has(subtype) || subtype.includes('hook');
}

/**
 * Attaches each compaction root below its logical parent when that is in the file; lists every
 * boundary. Claude Code 1.0 wrote no boundary: its compaction is a compact-summary root naming no
 * logical parent, which continues the record written just before it (on its side).
 */
function joinCompactionRoots(
  mapped: readonly MappedRecord[],
  indexOf: ReadonlyMap<string, number>,
): CompactionMark[] {
  const compactions: CompactionMark[] = [];
  /** The last uuid written on each side (0 main, 1 sidechain). */
  const lastWritten: (string | undefined)[] = [undefined, undefined];
  for (const { record, source, logicalParentUuid } of mapped) {
    const side = source.isSidechain ? 1 : 0;
    const previous = lastWritten[side];
    lastWritten[side] = record.uuid;
    const isBoundary = record.type === 'system' && record.subtype === RecordSubtype.compactBoundary;
    const isRoot = record.parentUuid === null && logicalParentUuid !== undefined;
    const isBareSummaryRoot =
      record.parentUuid === null &&
      logicalParentUuid === undefined &&
      record.type === 'system' &&
      record.subtype === RecordSubtype.compactSummary &&
      previous !== undefined &&
      previous !== record.uuid;
    if (isBareSummaryRoot) {
      compactions.push({ line: source.line, uuid: record.uuid, joined: true });
      source.originalParentUuid = null;
      record.parentUuid = previous;
      continue;
    }
    if (!isBoundary && !isRoot) continue;
    const joins = isRoot && indexOf.has(logicalParentUuid) && logicalParentUuid !== record.uuid;
    if (isBoundary) {
      const metadata = (record.systemPayload?.compaction ?? {}) as CompactionMetadata;
      compactions.push({
        line: source.line,
        uuid: record.uuid,
        ...(logicalParentUuid !== undefined && { logicalParentUuid }),
        joined: joins || record.parentUuid !== null,
        ...metadata,
      });
    }
    if (!joins) {
      // Continued from another file: name the missing record, so the inspector reports it.
      if (isRoot && !indexOf.has(logicalParentUuid)) {
        source.originalParentUuid = null;
        record.parentUuid = logicalParentUuid;
      }
      continue;
    }
    source.originalParentUuid = null;
    record.parentUuid = logicalParentUuid;
  }
  return compactions;
}
