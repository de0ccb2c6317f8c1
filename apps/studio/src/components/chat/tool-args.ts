import { READ_PATH_TOOL, type PathRef } from '@trellis/domain';

/**
 * A tool call's arguments as the person reads them: a `read_path` call names the step it read by
 * its label ("step": "2.1"), as the citation under the reply does, never by the other path's
 * thread id. Other calls show their arguments as the agent sent them.
 */
export function toolArgsForDisplay(name: string, args: Record<string, unknown>, citations: readonly PathRef[] | undefined): Record<string, unknown> {
  if (name !== READ_PATH_TOOL) return args;
  const { thread_id: threadId, turn, ...rest } = args;
  const cited = citations?.find((c) => c.thread_id === threadId && c.turn === turn);
  return { step: cited?.label ?? (typeof turn === 'number' ? `step ${turn} of another path` : 'another path'), ...rest };
}
