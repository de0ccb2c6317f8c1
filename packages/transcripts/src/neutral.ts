// The neutral-tail allowlist of docs/branching.md, "The transcript inspector's rules", exactly. Every other record, including every other
// system record (rewind, compression, attribution, file history …), is significant: it may
// carry recovery state and can be a leaf.
import type { ChatRecord } from './types';

export const NEUTRAL_TAIL_SUBTYPES: ReadonlySet<string> = new Set([
  'custom_title',
  'session_artifact_event',
  'session_artifact_snapshot',
]);

export function isNeutralRecord(record: ChatRecord): boolean {
  return (
    record.type === 'system' && record.subtype !== undefined && NEUTRAL_TAIL_SUBTYPES.has(record.subtype)
  );
}

export function isRewindRecord(record: ChatRecord): boolean {
  return record.type === 'system' && record.subtype === 'rewind';
}
