// The researcher's view of a study's participants (the dashboard's rows), a participant's Finish,
// and withdrawal: the family and everything in it deleted, the row kept as `withdrawn`.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { AppError, type AuthorshipSummary, type StudyCompletion, type StudyParticipant, type StudyParticipantList } from '@trellis/domain';
import { conversations, familyEvents, studies, studyConditions, studyParticipants, studySessions, user } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { readAuthorship } from '../authorship/get-authorship';
import { mapLimited } from '../util/limited';
import { requireItemId } from '../workspace/ids';
import { requireOwnStudy, type StudyOwner } from './manage-studies';

/** How many families' authorship is read at once for the dashboard. */
const WORDS_CONCURRENCY = 8;
/** Studies whose dashboard rows a process remembers (per database), the least recently read dropped first. */
const REMEMBERED_STUDIES = 64;

/** A participant's row as stored, with its `activity_version`. */
type ParticipantRow = {
  participant_id: string;
  thread_id: string | null;
  condition: string;
  status: StudyParticipant['status'];
  started_at: string;
  finished_at: string | null;
  last_activity_at: string;
  version: number;
};
type FamilyShape = Pick<StudyParticipant, 'steps' | 'paths' | 'words'>;
/** A participant's dashboard row as of `version`, its status as stored (the clock's is worked out at each poll). */
interface RememberedParticipant {
  row: StudyParticipant;
  startedMs: number;
  version: number;
}
interface RememberedStudy {
  /** The participants' count and the sum of their versions when they were read. */
  key: string;
  participants: RememberedParticipant[];
}
const rememberedByDb = new WeakMap<object, Map<string, RememberedStudy>>();

/**
 * The dashboard's rows. Every change to a participant's row and every event of their family moves
 * their `activity_version`, which only rises, so a poll first reads, with the study's ownership, its
 * participants' count and sum of versions (one index range, no look into any family): when they are
 * what the last poll saw, its rows stand (only the status, which follows the clock, is worked out
 * again). Otherwise the rows are read, and only the families of participants whose version moved
 * are counted and their words read. What a process remembers is checked against the database on
 * every poll, so a write on any process shows at the next poll.
 */
export async function listStudyParticipants(
  deps: Pick<ServiceDeps, 'db'>,
  owner: StudyOwner,
  input: { studyId: string },
): Promise<StudyParticipantList> {
  const studyId = requireItemId(input.studyId, 'Study');
  const [study] = await deps.db.execute<{ time_limit_minutes: number | null; n: number; total: string }>(sql`
    select s.time_limit_minutes,
           (select count(*)::int from ${studyParticipants} sp where sp.study_id = s.id) as n,
           (select coalesce(sum(sp.activity_version), 0)::text from ${studyParticipants} sp where sp.study_id = s.id) as total
      from ${studies} s where s.id = ${studyId} and s.owner_id = ${owner.userId}`);
  if (!study) throw AppError.notFound('Study');
  const remembering = rememberedByDb.get(deps.db) ?? new Map<string, RememberedStudy>();
  rememberedByDb.set(deps.db, remembering);
  const remembered = remembering.get(studyId);
  remembering.delete(studyId);
  const current = remembered?.key === `${study.n}:${study.total}` ? remembered : await readParticipants(deps, studyId, remembered);
  remembering.set(studyId, current);
  if (remembering.size > REMEMBERED_STUDIES) remembering.delete(remembering.keys().next().value!);

  const clock = Date.now();
  const participants = current.participants.map(({ row, startedMs }) => {
    const status = effectiveStatus(row.status, startedMs, study.time_limit_minutes, clock);
    return status === row.status ? row : { ...row, status };
  });
  const counts: Record<string, number> = {};
  for (const p of participants) if (p.status !== 'withdrawn') counts[p.condition] = (counts[p.condition] ?? 0) + 1;
  return { participants, counts };
}

/** The study's participants, reading the families of only those whose version moved since `before`. */
async function readParticipants(deps: Pick<ServiceDeps, 'db'>, studyId: string, before: RememberedStudy | undefined): Promise<RememberedStudy> {
  const rows = await deps.db.execute<ParticipantRow>(sql`
    select sp.participant_id, sp.thread_id, sc.name as condition, sp.status, sp.started_at, sp.finished_at,
           sp.last_activity_at, sp.activity_version as version
      from ${studyParticipants} sp join ${studyConditions} sc on sc.id = sp.condition_id
     where sp.study_id = ${studyId}
     order by sp.started_at, sp.participant_id`);
  const known = new Map(before?.participants.map((p) => [p.row.participant_id, p]));
  const moved = rows.filter((row) => known.get(row.participant_id)?.version !== row.version);
  const shapes = await familyShapes(deps, moved);
  const movedShapes = new Map(moved.map((row, i) => [row.participant_id, shapes[i]!]));
  const participants = rows.map((row): RememberedParticipant => {
    const shape = movedShapes.get(row.participant_id);
    if (!shape) return known.get(row.participant_id)!;
    const started = new Date(row.started_at);
    const last = new Date(row.last_activity_at);
    return {
      version: row.version,
      startedMs: started.getTime(),
      row: {
        participant_id: row.participant_id,
        thread_id: row.thread_id,
        condition: row.condition,
        status: row.status,
        started: started.toISOString(),
        finished: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
        active_minutes: Math.max(0, Math.round((last.getTime() - started.getTime()) / 6_000) / 10),
        ...shape,
        last_activity: last.toISOString(),
      },
    };
  });
  const total = rows.reduce((sum, row) => sum + BigInt(row.version), 0n);
  return { key: `${rows.length}:${total}`, participants };
}

/**
 * Steps (the family's user messages), paths (its visible threads) and words by author of each
 * participant's family, in the participants' order: one statement for the counts, then the words.
 */
async function familyShapes(deps: Pick<ServiceDeps, 'db'>, participants: readonly ParticipantRow[]): Promise<FamilyShape[]> {
  const none: FamilyShape = { steps: 0, paths: 0, words: { participant: 0, agent: 0, agent_edited: 0 } };
  const families = participants.map((p) => p.thread_id).filter((id): id is string => id !== null);
  if (families.length === 0) return participants.map(() => none);
  const rows = await deps.db.execute<{
    family_id: string;
    steps: number;
    paths: number;
    body_seq: number | null;
    cached_seq: number | null;
    cached_summary: AuthorshipSummary | null;
  }>(sql`
    select f.family_id,
           coalesce((select count(*)::int from ${conversations} c join messages m on m.thread_id = c.thread_id
                      where c.root_thread_id = f.family_id and m.role = 'user'), 0) as steps,
           coalesce((select count(*)::int from ${conversations} c
                       left join conversation_branches b on b.thread_id = c.thread_id
                      where c.root_thread_id = f.family_id and c.deleted_at is null
                        and (b.status is null or b.status = 'active')), 0) as paths,
           body.seq as body_seq, cached.seq as cached_seq, cached.summary as cached_summary
      from jsonb_array_elements_text(${JSON.stringify(families)}::jsonb) as f(family_id)
      left join lateral (select w.seq from workspace_changes w
                          where w.thread_id = f.family_id and w.kind = 'document' and w.op = 'patch'
                          order by w.seq desc limit 1) body on true
      left join lateral (select c.seq, c.summary from authorship_cache c
                          where c.thread_id = f.family_id order by c.seq desc limit 1) cached on true`);
  const byFamily = new Map(rows.map((row) => [row.family_id, row]));
  // A family whose newest authorship cache row follows its newest document change has its words in
  // that row; only the others (written since their words were last read) are walked.
  return mapLimited(participants, WORDS_CONCURRENCY, async (participant): Promise<FamilyShape> => {
    const row = participant.thread_id === null ? undefined : byFamily.get(participant.thread_id);
    if (!row) return none;
    const words =
      row.body_seq === null
        ? none.words
        : row.cached_summary !== null && Number(row.cached_seq) === Number(row.body_seq)
          ? wordsOf(row.cached_summary)
          : await familyWords(deps, row.family_id);
    return { steps: row.steps, paths: row.paths, words };
  });
}

/**
 * A participant past the study's time limit has timed out, whether or not they came back since (the
 * stored status changes only on their next write: join-study's UPDATE applies the same rule in SQL).
 */
export function effectiveStatus(status: StudyParticipant['status'], startedMs: number, limit: number | null, now: number = Date.now()): StudyParticipant['status'] {
  if ((status === 'consented' || status === 'active') && limit !== null && now > startedMs + limit * 60_000) return 'timed_out';
  return status;
}

/** Words of the family's first path (the root) by author. */
async function familyWords(deps: Pick<ServiceDeps, 'db'>, rootThreadId: string): Promise<StudyParticipant['words']> {
  const { summary } = await readAuthorship(deps.db, [{ threadId: rootThreadId, index: 0, offset: 0, cut: null }], null);
  return wordsOf(summary);
}

function wordsOf(summary: AuthorshipSummary): StudyParticipant['words'] {
  return { participant: summary.person_words, agent: summary.agent_words, agent_edited: summary.agent_edited_words };
}

/**
 * A participant's Finish: refused before the study's `min_minutes`, then the completion code and
 * redirect. Finishing twice answers the same completion.
 */
export async function finishStudy(
  deps: Pick<ServiceDeps, 'db'>,
  participant: { participantId: string; studyId: string },
  input: { slug?: string | undefined } = {},
): Promise<StudyCompletion> {
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ participant: studyParticipants, study: studies })
      .from(studyParticipants)
      .innerJoin(studies, eq(studies.id, studyParticipants.studyId))
      .where(and(eq(studyParticipants.participantId, participant.participantId), eq(studyParticipants.studyId, participant.studyId)))
      .for('update', { of: studyParticipants });
    if (!row || row.participant.status === 'withdrawn' || (input.slug !== undefined && row.study.slug !== input.slug)) throw AppError.notFound('Study');
    const { study } = row;
    const completion = { code: study.completionCode, redirect_url: study.completionRedirectUrl };
    if (row.participant.status === 'finished') return completion;
    const elapsedMs = Date.now() - row.participant.startedAt.getTime();
    if (study.minMinutes !== null && elapsedMs < study.minMinutes * 60_000) {
      const left = Math.ceil((study.minMinutes * 60_000 - elapsedMs) / 60_000);
      throw new AppError('conflict', `Finish opens after ${study.minMinutes} minutes; ${left} to go`, {
        details: { min_minutes: study.minMinutes, minutes_left: left },
      });
    }
    await tx
      .update(studyParticipants)
      .set({ status: 'finished', finishedAt: new Date(), lastActivityAt: new Date(), activityVersion: sql`${studyParticipants.activityVersion} + 1` })
      .where(eq(studyParticipants.participantId, participant.participantId));
    return completion;
  });
}

/**
 * Withdraws a participant: their family (every thread, message, change and event of it), their
 * sessions and their stand-in identity are deleted; the row stays, `withdrawn`, with no content.
 */
export async function withdrawParticipant(
  deps: Pick<ServiceDeps, 'db' | 'checkpointer' | 'family'>,
  owner: StudyOwner,
  input: { studyId: string; participantId: string },
): Promise<void> {
  const { threadIds, userId } = await deps.db.transaction(async (tx) => {
    const study = await requireOwnStudy(tx, owner, input.studyId);
    const participant = and(eq(studyParticipants.participantId, input.participantId), eq(studyParticipants.studyId, study.id));
    // The family's threads are locked before the participant's row: a write in the family holds its
    // thread's row when its event moves the participant's activity_version (familyEventStatement),
    // so the other order could deadlock with it.
    const [family] = await tx.select({ threadId: studyParticipants.threadId }).from(studyParticipants).where(participant);
    const familyThreads = async (rootThreadId: string | null) =>
      rootThreadId === null
        ? []
        : (await tx.select({ id: conversations.threadId }).from(conversations).where(eq(conversations.rootThreadId, rootThreadId)).orderBy(conversations.threadId).for('update')).map(
            (t) => t.id,
          );
    let ids = await familyThreads(family?.threadId ?? null);
    const [row] = await tx.select().from(studyParticipants).where(participant).for('update');
    if (!row) throw AppError.notFound('Participant');
    if (row.status === 'withdrawn') return { threadIds: [], userId: null };
    // Their family was made between the two reads (a join that had not finished).
    if (row.threadId !== (family?.threadId ?? null)) ids = await familyThreads(row.threadId);
    await tx
      .update(studyParticipants)
      .set({ status: 'withdrawn', threadId: null, userId: null, lastActivityAt: new Date(), activityVersion: sql`${studyParticipants.activityVersion} + 1` })
      .where(eq(studyParticipants.participantId, row.participantId));
    await tx.delete(studySessions).where(eq(studySessions.participantId, row.participantId));
    if (row.threadId !== null) {
      await tx.delete(familyEvents).where(eq(familyEvents.familyId, row.threadId));
      // Every table of a thread's record cascades from its conversation row.
      if (ids.length > 0) await tx.delete(conversations).where(inArray(conversations.threadId, ids));
    }
    if (row.userId !== null) await tx.delete(user).where(eq(user.id, row.userId));
    return { threadIds: ids, userId: row.userId };
  });
  // A tab the participant still has open stops hearing the family, on every studio process.
  if (userId !== null) await deps.family.endStreams({ userId }, 'access_removed');
  // The agent's working context is derived state: cleared after the record is gone.
  for (const id of threadIds) await deps.checkpointer.deleteThread(id);
}
