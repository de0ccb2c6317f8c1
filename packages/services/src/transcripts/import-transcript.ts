import { randomUUID } from 'node:crypto';
import { AppError, newThreadId, type TranscriptImported } from '@trellis/domain';
import type { PrefixMessage } from '@trellis/agent';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { seedAndActivate } from '../branching/pending-threads';
import { planFamily, planSeparate, type ImportPlan, type LeafPath } from './import-plan';
import { readTranscript, type TranscriptUpload } from './read-transcript';
import type { ImportedTurn } from './transcript-turns';
import { writePendingImport } from './write-pending-import';

export interface ImportTranscriptInput extends TranscriptUpload {
  /** One independent conversation per chosen leaf; absent: every leaf as ONE branch family. */
  leaf_uuids?: string[] | undefined;
}

/**
 * Brings a transcript into the studio (issue 7 §5) as one branch family (shared prefixes are
 * shared ancestors, each divergence a branch at the right turn; see import-plan.ts) or as one
 * conversation per chosen leaf. All or nothing, in the three phases of branch creation: TX1
 * writes every thread behind pending rows, each checkpointer thread is seeded with its budgeted
 * path window (so continuing an imported conversation works), then one statement activates them
 * all; a failure after TX1 removes everything and answers 502.
 */
export async function importTranscript(
  deps: ServiceDeps,
  actor: ThreadActor,
  input: ImportTranscriptInput,
): Promise<TranscriptImported> {
  // Refused while the process drains; an import in flight delays the database stop.
  return deps.gate.run('the import', () => importNow(deps, actor, input));
}

async function importNow(deps: ServiceDeps, actor: ThreadActor, input: ImportTranscriptInput): Promise<TranscriptImported> {
  const read = readTranscript(input);
  const newId = () => newThreadId(randomUUID);
  const plan: ImportPlan =
    input.leaf_uuids === undefined
      ? planFamily(read.leaves, newId)
      : planSeparate(chosenLeaves(read.leaves, input.leaf_uuids), newId);
  await writePendingImport(deps, actor.userId, plan);
  await seedAndActivate(deps, {
    userId: actor.userId,
    threads: plan.threads.map((thread) => ({
      threadId: thread.threadId,
      prefix: () => pathMessages(thread.path, deps.contextBudget.maxMessages),
    })),
    failureMessage: 'The transcript could not be imported; nothing was left behind. Try again.',
  });
  deps.logger.info(
    { user_id: actor.userId, format: read.format, threads: plan.threads.length, leaves: plan.conversations.length },
    'transcript imported',
  );
  return { conversations: plan.conversations, root_thread_id: plan.root_thread_id };
}

/** The chosen leaves in the transcript's order; an unknown uuid is a 422. */
function chosenLeaves(leaves: readonly LeafPath[], uuids: readonly string[]): LeafPath[] {
  const chosen = new Set(uuids);
  const known = new Set(leaves.map((leaf) => leaf.leafUuid));
  const unknown = uuids.filter((uuid) => !known.has(uuid));
  if (unknown.length > 0) {
    throw AppError.validation(
      unknown.slice(0, 20).map((uuid) => ({ path: 'leaf_uuids', message: `${uuid} is not a leaf of this transcript` })),
      `${unknown.length} chosen leaf uuid(s) are not leaves of this transcript`,
    );
  }
  return leaves.filter((leaf) => chosen.has(leaf.leafUuid));
}

/** The last `maxMessages` messages of a path — all the checkpointer's budget can keep. */
function pathMessages(path: readonly ImportedTurn[], maxMessages: number): PrefixMessage[] {
  const messages: PrefixMessage[] = [];
  for (let i = path.length - 1; i >= 0 && messages.length < maxMessages; i--) {
    const turn = path[i]!;
    if (turn.reply !== null) messages.push({ role: 'assistant', content: turn.reply });
    messages.push({ role: 'user', content: turn.prompt });
  }
  return messages.slice(0, maxMessages).reverse();
}
