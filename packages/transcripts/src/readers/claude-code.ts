// Claude Code JSONL mapped onto ChatRecord (issue 7 §3).
//
// - Content blocks become parts (see claude-code-content.ts); a user record holding only
//   tool_result blocks becomes a `tool_result` record. Compaction summaries and meta user
//   records (isCompactSummary, isMeta) are system-written, so they become significant system
//   records (`compact_summary`, `meta`) instead of user prompts.
// - Progress, attachment and hook/stop records are neutral: they become system records with the
//   neutral subtype `session_artifact_event`, the inspector's own vocabulary for "metadata that
//   may trail a conversation without being one", so a run of them at a tail collapses into the
//   conversation above instead of creating a false leaf. Their Claude Code type is kept in
//   `claudeCode.type`.
// - Parallel tool-call fan-out is re-chained into one logical step (claude-code-tool-fanout.ts).
// - A compaction boundary starts a new root (parentUuid null) and names the record it continues
//   in `logicalParentUuid`; it is joined to that record and reported, or reported as unjoined
//   when that record is not in the file.
// - Sidechain (sub-agent) records are returned apart from the main conversation.
// - Records without a uuid (summary, file-history-snapshot, queue-operation …) carry no
//   topology and are skipped.
import type { ChatRecord } from '../types';
import { mapContent } from './claude-code-content';
import { linearizeToolFanOut, type FanOutEntry } from './claude-code-tool-fanout';
import { isJsonObject, readJsonlObjects, stringField, type JsonObject } from './jsonl';
import type { ReadOptions, ReaderDiagnostic, TranscriptReadResult } from './types';

/** Where a mapped record came from. */
export interface ClaudeCodeSource {
  line: number;
  /** Claude Code's own record type (user, assistant, system, progress, attachment …). */
  type: string;
  subtype?: string;
  messageId?: string;
  isSidechain: boolean;
  /** Set when the record was re-parented (tool fan-out or compaction join). */
  originalParentUuid?: string | null;
}

const NEUTRAL_SUBTYPE = 'session_artifact_event';
const NEUTRAL_TYPES: ReadonlySet<string> = new Set(['progress', 'attachment']);
const NEUTRAL_SYSTEM_SUBTYPES: ReadonlySet<string> = new Set(['stop_hook_summary', 'turn_duration']);
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
]);

interface MappedRecord {
  record: ChatRecord;
  source: ClaudeCodeSource;
  fanOut: FanOutEntry;
  logicalParentUuid: string | undefined;
}

export function parseClaudeCodeJsonl(text: string, options: ReadOptions = {}): TranscriptReadResult {
  const diagnostics: ReaderDiagnostic[] = [];
  const mapped: MappedRecord[] = [];
  const toolNames = new Map<string, string>();
  const reportedTypes = new Set<string>();

  for (const item of readJsonlObjects(text, options)) {
    if ('diagnostic' in item) {
      diagnostics.push(item.diagnostic);
      continue;
    }
    const type = stringField(item.value, 'type') ?? '';
    const isKnown = CHAIN_TYPES.has(type) || METADATA_TYPES.has(type);
    if (!isKnown && !reportedTypes.has(type)) {
      reportedTypes.add(type);
      diagnostics.push({ kind: 'unknown-record-type', line: item.line, recordType: type });
    }
    if (METADATA_TYPES.has(type) || (!isKnown && typeof item.value.uuid !== 'string')) continue;
    const result = mapRecord(item.value, item.line, type, toolNames);
    if (typeof result === 'string')
      diagnostics.push({ kind: 'invalid-record', line: item.line, reason: result });
    else mapped.push(result);
  }

  joinCompactionRoots(mapped, diagnostics);
  const newParents = linearizeToolFanOut(
    mapped.map((entry) => ({ ...entry.fanOut, parentUuid: entry.record.parentUuid })),
  );
  // Later copies of a uuid move with it only when they agree with its first record, so a
  // conflicting parent stays visible to the inspector.
  for (const { record, source } of mapped) {
    const reparent = newParents.get(record.uuid);
    if (reparent === undefined || record.parentUuid !== reparent.from) continue;
    source.originalParentUuid ??= record.parentUuid;
    record.parentUuid = reparent.to;
  }

  // Compaction reports come after the line-by-line pass; a stable sort restores line order.
  diagnostics.sort((a, b) => a.line - b.line);
  const result: TranscriptReadResult = { records: [], sidechainRecords: [], diagnostics };
  for (const { record, source } of mapped)
    (source.isSidechain ? result.sidechainRecords : result.records).push(record);
  return result;
}

function mapRecord(
  value: JsonObject,
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
  const source: ClaudeCodeSource = {
    line,
    type,
    ...(subtype !== undefined && { subtype }),
    ...(messageId !== undefined && { messageId }),
    isSidechain: value.isSidechain === true,
  };
  const base = {
    uuid,
    parentUuid: parentUuid ?? null,
    sessionId: stringField(value, 'sessionId') ?? '',
    timestamp: stringField(value, 'timestamp') ?? '',
    claudeCode: source,
  };
  const content = mapContent(message?.content, toolNames);
  const fanOut: FanOutEntry = {
    uuid,
    parentUuid: base.parentUuid,
    isAssistant: type === 'assistant',
    messageId,
    toolUseIds: content.toolUseIds,
    toolResultIds: content.toolResultIds,
    isContinuation: false,
  };
  const logicalParentUuid = stringField(value, 'logicalParentUuid');
  const build = (record: ChatRecord, isContinuation: boolean): MappedRecord => ({
    record,
    source,
    fanOut: { ...fanOut, isContinuation },
    logicalParentUuid,
  });

  if (type === 'assistant') {
    return build({ ...base, type: 'assistant', message: { role: 'assistant', parts: content.parts } }, true);
  }
  if (type === 'user') {
    const userMessage = { role: 'user', parts: content.parts };
    if (value.isCompactSummary === true)
      return build({ ...base, type: 'system', subtype: 'compact_summary', message: userMessage }, true);
    if (value.isMeta === true)
      return build({ ...base, type: 'system', subtype: 'meta', message: userMessage }, true);
    if (content.isOnlyToolResults)
      return build({ ...base, type: 'tool_result', message: userMessage }, false);
    return build({ ...base, type: 'user', message: userMessage }, true);
  }
  if (type === 'system' && subtype !== undefined && !isNeutralSystemSubtype(subtype)) {
    const systemContent = value.content;
    return build(
      {
        ...base,
        type: 'system',
        subtype,
        ...(typeof systemContent === 'string' && { systemPayload: { content: systemContent } }),
      },
      true,
    );
  }
  return build({ ...base, type: 'system', subtype: NEUTRAL_SUBTYPE }, false);
}

/** Hook and stop bookkeeping; a system record without a subtype says nothing either. */
function isNeutralSystemSubtype(subtype: string): boolean {
  return NEUTRAL_SYSTEM_SUBTYPES.has(subtype) || subtype.includes('hook');
}

function joinCompactionRoots(mapped: MappedRecord[], diagnostics: ReaderDiagnostic[]): void {
  const uuids = new Set(mapped.map((entry) => entry.record.uuid));
  for (const { record, source, logicalParentUuid } of mapped) {
    if (record.parentUuid !== null || logicalParentUuid === undefined) continue;
    const report = { line: source.line, uuid: record.uuid, logicalParentUuid };
    if (!uuids.has(logicalParentUuid) || logicalParentUuid === record.uuid) {
      diagnostics.push({ kind: 'compaction-parent-missing', ...report });
      continue;
    }
    source.originalParentUuid = null;
    record.parentUuid = logicalParentUuid;
    diagnostics.push({ kind: 'compaction-joined', ...report });
  }
}
