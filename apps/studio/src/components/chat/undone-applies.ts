import type { Message } from '@trellis/domain';

export const applyKey = (threadId: string, turn: number): string => `${threadId}:${turn}`;

/**
 * Which applies of a transcript an undo entry already reverses, and at which step: an undo is an
 * entry on the apply's own thread whose provenance names the apply's step (`undoes`). The studio
 * reads this from the transcript the server sent, so a reloaded tab offers no Undo for an apply
 * that was undone, exactly like the tab that undid it.
 */
export function undoneApplies(messages: readonly Message[]): Map<string, number> {
  const undone = new Map<string, number>();
  for (const message of messages) {
    const undoes = message.role === 'system' ? message.provenance?.undoes : undefined;
    if (undoes !== undefined) undone.set(applyKey(message.thread_id, undoes), message.turn_index);
  }
  return undone;
}
