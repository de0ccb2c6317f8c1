// Qwen Code JSONL: records are taken as they are, after a structural check of the
// fields the inspector reads. A line that fails the check is reported, never thrown.
import { MAX_NESTING_DEPTH } from '../limits';
import { RecordSubtype } from '../record-kind';
import type { ChatMessage, ChatRecord, ChatRecordType, SystemPayload } from '../types';
import { isJsonObject, readJsonlObjects, type JsonObject } from './jsonl';
import { ReadState, UNLIMITED_BUDGET } from './read-state';
import type { CompactionMark, ReadOptions, TranscriptReadResult } from './types';

const RECORD_TYPES: ReadonlySet<string> = new Set<ChatRecordType>([
  'user',
  'assistant',
  'tool_result',
  'system',
]);

export function parseQwenJsonl(text: string, options: ReadOptions = {}): TranscriptReadResult {
  return readQwenJsonl(
    text,
    options,
    new ReadState({ ...UNLIMITED_BUDGET, maxNestingDepth: options.maxNestingDepth ?? MAX_NESTING_DEPTH }),
  );
}

/** Stops at the first refusal recorded in `state`; the partial result is then meaningless. */
export function readQwenJsonl(text: string, options: ReadOptions, state: ReadState): TranscriptReadResult {
  const records: ChatRecord[] = [];
  const compactions: CompactionMark[] = [];
  for (const item of readJsonlObjects(text, options)) {
    const value = state.valueOf(item);
    if (state.isRefused) break;
    if (value === undefined) continue;
    const checked = toQwenRecord(value);
    if (typeof checked === 'string') {
      state.diagnostics.push({ kind: 'invalid-record', line: item.line, reason: checked });
      continue;
    }
    if (!state.admitRecord(item.line)) break;
    records.push(checked);
    if (checked.type === 'system' && checked.subtype === RecordSubtype.chatCompression) {
      compactions.push({ line: item.line, uuid: checked.uuid, joined: checked.parentUuid !== null });
    }
  }
  return {
    records,
    sidechainRecords: [],
    diagnostics: state.diagnostics.items,
    diagnosticCount: state.diagnostics.count,
    compactions,
  };
}

/**
 * The record itself (the parsed object, not a copy), or why it is not one. A missing `sessionId` or `timestamp`
 * reads as an empty string; every other named field must have its documented type.
 */
export function toQwenRecord(value: JsonObject): ChatRecord | string {
  const { uuid, parentUuid, type, sessionId, timestamp, subtype, message, systemPayload, externalInputKind } =
    value;
  if (typeof uuid !== 'string' || uuid === '') return 'uuid is not a non-empty string';
  if (parentUuid !== null && typeof parentUuid !== 'string') return 'parentUuid is neither a string nor null';
  if (!isRecordType(type)) return `unknown record type ${JSON.stringify(type) ?? 'undefined'}`;
  if (!isOptional(sessionId, 'string') || !isOptional(timestamp, 'string'))
    return 'sessionId or timestamp is not a string';
  if (!isOptional(subtype, 'string') || !isOptional(externalInputKind, 'string')) {
    return 'subtype or externalInputKind is not a string';
  }
  if (message !== undefined && !isChatMessage(message)) return 'message has no parts array';
  if (systemPayload !== undefined && !isSystemPayload(systemPayload)) {
    return 'systemPayload is not an object with an optional string displayText';
  }
  // The parsed object is the reader's own, so it becomes the record as it is: a copy built with a
  // spread would give records a hidden class each (docs/transcripts.md, "Speed").
  const record = value as ChatRecord;
  if (sessionId === undefined) record.sessionId = '';
  if (timestamp === undefined) record.timestamp = '';
  return record;
}

function isRecordType(type: unknown): type is ChatRecordType {
  return typeof type === 'string' && RECORD_TYPES.has(type);
}

function isSystemPayload(payload: unknown): payload is SystemPayload {
  return isJsonObject(payload) && isOptional(payload.displayText, 'string');
}

function isOptional(field: unknown, type: 'string'): field is string | undefined {
  return field === undefined || typeof field === type;
}

function isChatMessage(message: unknown): message is ChatMessage {
  return isJsonObject(message) && Array.isArray(message.parts) && message.parts.every(isJsonObject);
}
