// Terse ChatRecord builders for tests. Timestamps default to `at:<uuid>` so assertions show
// exactly which record a timestamp came from.
import type { ChatRecord } from '../types';

type Extra = Partial<ChatRecord>;

export function record(
  uuid: string,
  parentUuid: string | null,
  type: ChatRecord['type'],
  extra: Extra = {},
): ChatRecord {
  return { uuid, parentUuid, sessionId: 's1', timestamp: `at:${uuid}`, type, ...extra };
}

export function user(uuid: string, parentUuid: string | null, text: string, extra: Extra = {}): ChatRecord {
  return record(uuid, parentUuid, 'user', { message: { role: 'user', parts: [{ text }] }, ...extra });
}

export function assistant(
  uuid: string,
  parentUuid: string | null,
  text: string,
  extra: Extra = {},
): ChatRecord {
  return record(uuid, parentUuid, 'assistant', { message: { role: 'model', parts: [{ text }] }, ...extra });
}

export function toolResult(uuid: string, parentUuid: string | null, extra: Extra = {}): ChatRecord {
  const functionResponse = { id: `call-${uuid}`, name: 'read_file', response: { output: 'file contents' } };
  return record(uuid, parentUuid, 'tool_result', {
    message: { role: 'user', parts: [{ functionResponse }] },
    ...extra,
  });
}

export function system(
  uuid: string,
  parentUuid: string | null,
  subtype: string,
  extra: Extra = {},
): ChatRecord {
  return record(uuid, parentUuid, 'system', { subtype, ...extra });
}
