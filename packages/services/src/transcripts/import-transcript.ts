import { randomUUID } from 'node:crypto';
import { AppError, newThreadId, type TranscriptImported } from '@trellis/domain';
import type { PrefixMessage } from '@trellis/agent';
import type { ServiceDeps } from '../deps';
import type { ThreadActor } from '../conversations/conversation-access';
import { seedAndActivate } from '../branching/pending-threads';
import { planFamily, planSeparate, type ImportPlan, type LeafPath } from './import-plan';
import type { ProjectUpload } from './open-project';
import type { TranscriptUpload } from './read-transcript';
import { readLeavesInWorker } from './run-transcript-job';
import { leafPaths, type AnyUpload } from './transcript-job';
import type { ImportedTurn } from './transcript-turns';
import { consumeUploadAllowance } from './upload-rate-limit';
import { assertUploadWithinByteLimit } from './upload-limits';
import { findEarlierImport, writePendingImport } from './write-pending-import';

export interface ImportTranscriptInput extends TranscriptUpload {
  /** One independent conversation per chosen leaf; absent: every leaf as ONE branch family. */
  leaf_uuids?: string[] | undefined;
  /** Import even when this user already imported the same content (else 409 `already_imported`). */
  again?: boolean | undefined;
}

/**
 * Brings a transcript into the studio as one branch family (shared prefixes are
 * shared ancestors, each divergence a branch at the right turn; see import-plan.ts) or as one
 * conversation per chosen leaf. All or nothing, in the three phases of branch creation: TX1
 * writes every thread behind pending rows, each checkpointer thread is seeded with its budgeted
 * path window (so continuing an imported conversation works), then one statement activates them
 * all; a failure after TX1 removes everything and answers 502. The file is read in a worker
 * (run-transcript-job.ts); its text is stored cleaned (NUL removed, lone surrogates replaced).
 * The same content imported twice by one user is a 409 unless `again` says so.
 */
export async function importTranscript(
  deps: ServiceDeps,
  actor: ThreadActor,
  input: ImportTranscriptInput,
): Promise<TranscriptImported> {
  // Refused while the process drains; an import in flight delays the database stop.
  const upload = { content: input.content, filename: input.filename };
  return deps.gate.run('the import', () => importNow(deps, actor, upload, input));
}

export interface ImportProjectInput extends ProjectUpload {
  again?: boolean | undefined;
}

/**
 * A zipped Claude Code project folder imported as one family (open-project.ts): resumed and
 * compacted sessions continue one another across files, and each subagent run is stored on the
 * tool call that started it. Otherwise exactly {@link importTranscript} with every leaf.
 */
export async function importProject(deps: ServiceDeps, actor: ThreadActor, input: ImportProjectInput): Promise<TranscriptImported> {
  const upload = { zip: input.zip, filename: input.filename };
  return deps.gate.run('the import', () => importNow(deps, actor, upload, { again: input.again, filename: input.filename }));
}

async function importNow(
  deps: ServiceDeps,
  actor: ThreadActor,
  upload: AnyUpload,
  input: Pick<ImportTranscriptInput, 'leaf_uuids' | 'again' | 'filename'>,
): Promise<TranscriptImported> {
  await consumeUploadAllowance(deps, actor.userId);
  assertUploadWithinByteLimit(upload);
  const read = await readLeavesInWorker({ kind: 'read-leaves', upload }, deps.transcriptJobs);
  if (input.again !== true) {
    const earlier = await findEarlierImport(deps, actor.userId, read.contentHash);
    if (earlier !== null) throw alreadyImported(input.filename, earlier);
  }
  const leaves = leafPaths(read);
  const newId = () => newThreadId(randomUUID);
  const plan: ImportPlan =
    input.leaf_uuids === undefined
      ? planFamily(leaves, newId)
      : planSeparate(chosenLeaves(leaves, input.leaf_uuids), newId);
  await writePendingImport(deps, actor.userId, plan, read.contentHash);
  await seedAndActivate(deps, {
    userId: actor.userId,
    threads: plan.threads.map((thread) => ({
      threadId: thread.threadId,
      prefix: () => pathMessages(thread.path, deps.contextBudget.maxMessages),
    })),
    failureMessage: 'The transcript could not be imported; nothing was left behind. Try again.',
    freshThreads: true,
  });
  deps.logger.info(
    { user_id: actor.userId, format: read.format, threads: plan.threads.length, leaves: plan.conversations.length },
    'transcript imported',
  );
  return { conversations: plan.conversations, root_thread_id: plan.root_thread_id };
}

function alreadyImported(filename: string | undefined, earlier: { thread_id: string; title: string; imported_at: string }): AppError {
  const what = filename ? `${filename} was` : 'This file was';
  return new AppError(
    'conflict',
    `${what} already imported on ${earlier.imported_at.slice(0, 10)} as “${earlier.title}”; choose “Import again” to make a second copy`,
    { details: { reason: 'already_imported', ...earlier } },
  );
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
