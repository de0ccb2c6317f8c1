// The researcher's view of a study's participants (the dashboard's rows), a participant's Finish,
// and withdrawal: the family and everything in it deleted, the row kept as `withdrawn`.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { AppError, type AuthorshipSummary, type StudyCompletion, type StudyParticipant, type StudyParticipantList } from '@trellis/domain';
import { conversations, familyEvents, studies, studyConditions, studyParticipants, studySessions, user } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { readAuthorship } from '../authorship/get-authorship';
import { mapLimited } from '../util/limited';
import { requireOwnStudy, type StudyOwner } from './manage-studies';

/** How many families' authorship is read at once for the dashboard. */
const WORDS_CONCURRENCY = 8;

export async function listStudyParticipants(
  deps: Pick<ServiceDeps, 'db'>,
  owner: StudyOwner,
  input: { studyId: string },
): Promise<StudyParticipantList> {
  const study = await requireOwnStudy(deps.db, owner, input.studyId);
  // One statement for the rows and their families' shape: steps are the family's user messages,
  // paths its visible threads.
  const rows = await deps.db.execute<{
    participant_id: string;
    thread_id: string | null;
    condition: string;
    status: StudyParticipant['status'];
    started_at: string;
    finished_at: string | null;
    last_activity_at: string;
    time_limit_minutes: number | null;
    steps: number;
    paths: number;
    body_seq: number | null;
    cached_seq: number | null;
    cached_summary: AuthorshipSummary | null;
  }>(sql`
    select sp.participant_id, sp.thread_id, sc.name as condition, sp.status,
           sp.started_at, sp.finished_at, sp.last_activity_at, s.time_limit_minutes,
           coalesce((select count(*)::int from ${conversations} c join messages m on m.thread_id = c.thread_id
                      where c.root_thread_id = sp.thread_id and m.role = 'user'), 0) as steps,
           coalesce((select count(*)::int from ${conversations} c
                       left join conversation_branches b on b.thread_id = c.thread_id
                      where c.root_thread_id = sp.thread_id and c.deleted_at is null
                        and (b.status is null or b.status = 'active')), 0) as paths,
           body.seq as body_seq, cached.seq as cached_seq, cached.summary as cached_summary
      from ${studyParticipants} sp
      join ${studyConditions} sc on sc.id = sp.condition_id
      join ${studies} s on s.id = sp.study_id
      left join lateral (select w.seq from workspace_changes w
                          where w.thread_id = sp.thread_id and w.kind = 'document' and w.op = 'patch'
                          order by w.seq desc limit 1) body on true
      left join lateral (select c.seq, c.summary from authorship_cache c
                          where c.thread_id = sp.thread_id order by c.seq desc limit 1) cached on true
     where sp.study_id = ${study.id}
     order by sp.started_at, sp.participant_id`);
  // A family whose newest authorship cache row follows its newest document change has its words in
  // that row; only the others (written since the last read) are walked, so a dashboard polled live
  // costs the one statement above, not one read per participant.
  const words = await mapLimited(rows, WORDS_CONCURRENCY, (row) => {
    if (row.thread_id === null || row.body_seq === null) return Promise.resolve(null);
    if (row.cached_summary !== null && Number(row.cached_seq) === Number(row.body_seq)) return Promise.resolve(wordsOf(row.cached_summary));
    return familyWords(deps, row.thread_id);
  });
  const now = Date.now();
  const participants = rows.map((row, i): StudyParticipant => {
    const started = new Date(row.started_at);
    const last = new Date(row.last_activity_at);
    return {
      participant_id: row.participant_id,
      thread_id: row.thread_id,
      condition: row.condition,
      status: effectiveStatus(row.status, started, row.time_limit_minutes, now),
      started: started.toISOString(),
      finished: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
      active_minutes: Math.max(0, Math.round((last.getTime() - started.getTime()) / 6_000) / 10),
      steps: row.steps,
      paths: row.paths,
      words: words[i] ?? { participant: 0, agent: 0, agent_edited: 0 },
      last_activity: last.toISOString(),
    };
  });
  const counts: Record<string, number> = {};
  for (const p of participants) if (p.status !== 'withdrawn') counts[p.condition] = (counts[p.condition] ?? 0) + 1;
  return { participants, counts };
}

/**
 * A participant past the study's time limit has timed out, whether or not they came back since (the
 * stored status changes only on their next write: join-study's UPDATE applies the same rule in SQL).
 */
export function effectiveStatus(status: StudyParticipant['status'], started: Date, limit: number | null, now: number = Date.now()): StudyParticipant['status'] {
  if ((status === 'consented' || status === 'active') && limit !== null && now > started.getTime() + limit * 60_000) return 'timed_out';
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
      .set({ status: 'finished', finishedAt: new Date(), lastActivityAt: new Date() })
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
    const [row] = await tx
      .select()
      .from(studyParticipants)
      .where(and(eq(studyParticipants.participantId, input.participantId), eq(studyParticipants.studyId, study.id)))
      .for('update');
    if (!row) throw AppError.notFound('Participant');
    if (row.status === 'withdrawn') return { threadIds: [], userId: null };
    const threads = row.threadId === null ? [] : await tx.select({ id: conversations.threadId }).from(conversations).where(eq(conversations.rootThreadId, row.threadId));
    const ids = threads.map((t) => t.id);
    await tx
      .update(studyParticipants)
      .set({ status: 'withdrawn', threadId: null, userId: null, lastActivityAt: new Date() })
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
