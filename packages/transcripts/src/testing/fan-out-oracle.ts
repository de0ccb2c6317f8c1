// Test oracle for the fan-out join, over the reader's output: a tool result is a false leaf
// when one of its siblings (another record with the same parent) is a tool call of the same
// assistant message as the call it answers. Such a result is the dangling half of a parallel
// call, never a conversation of its own.
import type { ChatRecord } from '../types';

function idsOf(record: ChatRecord, key: 'functionCall' | 'functionResponse'): string[] {
  const ids: string[] = [];
  for (const part of record.message?.parts ?? []) {
    const value = part[key] as { id?: unknown } | undefined;
    if (typeof value?.id === 'string') ids.push(value.id);
  }
  return ids;
}

const messageIdOf = (record: ChatRecord): string | undefined =>
  (record.claudeCode as { messageId?: string } | undefined)?.messageId;

/** Leaves among `leafUuids` that are the dangling half of a parallel tool call in `records`. */
export function danglingFanOutLeaves(records: readonly ChatRecord[], leafUuids: readonly string[]): string[] {
  const first = new Map<string, ChatRecord>();
  for (const record of records) if (!first.has(record.uuid)) first.set(record.uuid, record);
  const messageOfCall = new Map<string, string>();
  const callMessagesBelow = new Map<string | null, Set<string>>();
  for (const record of first.values()) {
    const messageId = messageIdOf(record);
    const calls = record.type === 'assistant' ? idsOf(record, 'functionCall') : [];
    if (messageId === undefined || calls.length === 0) continue;
    for (const id of calls) messageOfCall.set(id, messageId);
    const below = callMessagesBelow.get(record.parentUuid) ?? new Set<string>();
    below.add(messageId);
    callMessagesBelow.set(record.parentUuid, below);
  }
  return leafUuids.filter((uuid) => {
    const leaf = first.get(uuid);
    if (leaf?.type !== 'tool_result') return false;
    const siblingCalls = callMessagesBelow.get(leaf.parentUuid);
    return idsOf(leaf, 'functionResponse').some((id) => {
      const messageId = messageOfCall.get(id);
      return messageId !== undefined && siblingCalls?.has(messageId) === true;
    });
  });
}
