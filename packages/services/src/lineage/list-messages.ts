import { AppError, type MessageList } from '@trellis/domain';
import type { ServiceDeps } from '../deps';
import { assertOwnership, type ThreadActor } from '../conversations/conversation-access';
import { readPathMessages } from '../branching/path-messages';
import { loadLineage } from './load-lineage';

export interface ListMessagesInput {
  threadId: string;
  /** Only turns strictly before this one (the page above the one already shown). */
  before_turn?: number | undefined;
  limit_turns: number;
}

/**
 * The transcript the person sees on a thread: each ancestor's turns up to the
 * branch point of the next thread down, then the thread's own turns (a branch
 * stores only the turns it owns; docs/branching.md, "The prefix rule"). Paged by
 * turns, newest page first, so reading a deep thread costs the lineage query plus
 * ONE message query whatever the depth or the length.
 */
export async function listMessages(
  deps: Pick<ServiceDeps, 'db'>,
  actor: ThreadActor,
  input: ListMessagesInput,
): Promise<MessageList> {
  const lineage = await loadLineage(deps.db, input.threadId);
  const displayed = lineage.at(-1);
  if (!displayed) throw AppError.notFound('Conversation');
  assertOwnership({ userId: displayed.user_id, isDeleted: displayed.is_deleted, isPending: displayed.is_pending }, actor);
  const tip = displayed.turn_index;
  const upTo = input.before_turn === undefined ? tip : Math.min(tip, input.before_turn - 1);
  const from = Math.max(1, upTo - input.limit_turns + 1);
  if (upTo < from) return { messages: [], has_more: false };
  const messages = await readPathMessages(deps.db, lineage, { from, upTo });
  return { messages, has_more: from > 1 };
}
