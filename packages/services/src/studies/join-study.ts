// The participant's side of a study's open link (docs/studies.md): consent, assignment to a
// condition, their own family seeded from the study's workspace, and a session scoped to it.
import { randomBytes, randomUUID } from 'node:crypto';
import { TransactionRollbackError, and, eq, sql } from 'drizzle-orm';
import { AppError, type JoinStudy, type StudyJoined } from '@trellis/domain';
import { familyMembers, pipelinedTransaction, studies, studyConditions, studyParticipants, studySessions, user, type Db } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { createRootThread } from '../conversations/create-conversation';
import { writeWorkspace, type WorkspaceEdit } from '../workspace/write-workspace';
import { hashSecretToken, isSecretToken, mintSecretToken } from '../auth/secret-token';

/** The cookie that carries a participant's session (HttpOnly; only its token's sha-256 is stored). */
export const PARTICIPANT_COOKIE = 'trellis_participant';

/** A participant, as a session resolves them: an editor of one family, nothing else. */
export interface ParticipantSession {
  participantId: string;
  studyId: string;
  /** The participant's stand-in identity: the record names them by it. */
  userId: string;
  /** Their family's root thread. */
  familyId: string;
  status: (typeof studyParticipants.$inferSelect)['status'];
}

/**
 * Joins (or resumes) a study through its open link. The same pid resumes the same family on any
 * device; without one, a session of this study resumes. A new participant needs an open study and
 * consent; declining stores nothing. Assignment takes the condition furthest below its share of
 * the participants by weight (ties: the first) under the study's row lock, held for the
 * assignment alone, so concurrent joins balance exactly and wait for one another only briefly; the
 * family is made and seeded after it. Every join answers a fresh session token for the cookie.
 */
export async function joinStudy(
  deps: Pick<ServiceDeps, 'db'>,
  input: { slug: string; join: JoinStudy; sessionToken?: string | undefined },
): Promise<StudyJoined & { participantId: string; sessionToken: string }> {
  if (!input.join.consent) throw AppError.validation([{ path: 'consent', message: 'must be true to take part' }], 'Taking part needs your consent');
  const { db } = deps;
  const pid = input.join.pid ?? input.join.PROLIFIC_PID;
  const { study, resumable } = await findStudy(db, input.slug, pid, input.sessionToken);
  if (!study || study.status === 'draft') throw AppError.notFound('Study');
  const participant = resumable ? resumed(resumable) : await assign(db, study, pid, input.join);
  const sessionToken = mintSecretToken();
  // The join that makes the family stores the session with it; any other join stores it alone.
  const made = participant.threadId === null ? await createFamily(db, study, participant, sessionToken) : null;
  const threadId = made ?? participant.threadId ?? (await claimedFamily(db, participant.participantId));
  if (made === null) await db.insert(studySessions).values({ tokenHash: hashSecretToken(sessionToken), participantId: participant.participantId });
  return { thread_id: threadId, participantId: participant.participantId, sessionToken };
}

type StudyRow = typeof studies.$inferSelect;
interface Assigned {
  participantId: string;
  userId: string | null;
  threadId: string | null;
}
interface ParticipantRow extends Assigned {
  status: ParticipantSession['status'];
}

/**
 * The study behind a slug and, in the same statement, the participant the join resumes: by pid
 * when it names one, else by a session cookie of this study.
 */
async function findStudy(
  db: Db,
  slug: string,
  pid: string | undefined,
  sessionToken: string | undefined,
): Promise<{ study: StudyRow | undefined; resumable: ParticipantRow | null }> {
  const resumes =
    pid !== undefined
      ? eq(studyParticipants.pid, pid)
      : sessionToken !== undefined && isSecretToken(sessionToken)
        ? sql`${studyParticipants.participantId} = (select participant_id from ${studySessions} where token_hash = ${hashSecretToken(sessionToken)})`
        : sql`false`;
  const [row] = await db
    .select({
      study: studies,
      participantId: studyParticipants.participantId,
      userId: studyParticipants.userId,
      threadId: studyParticipants.threadId,
      status: studyParticipants.status,
    })
    .from(studies)
    .leftJoin(studyParticipants, and(eq(studyParticipants.studyId, studies.id), resumes))
    .where(eq(studies.slug, slug));
  if (!row) return { study: undefined, resumable: null };
  const { study, participantId, userId, threadId, status } = row;
  return { study, resumable: participantId === null || status === null ? null : { participantId, userId, threadId, status } };
}

/** A participant found again: a withdrawn one's family is gone, and the same pid does not come back to it. */
function resumed(row: ParticipantRow): Assigned {
  if (row.status === 'withdrawn') throw AppError.forbidden('You have withdrawn from this study');
  return { participantId: row.participantId, userId: row.userId, threadId: row.threadId };
}

/** A join waiting for its assignment: the participant it would make, and its answer. */
interface Candidate {
  participantId: string;
  userId: string;
  pid: string | null;
  prolificPid: string | null;
  prolificStudyId: string | null;
  prolificSessionId: string | null;
  settle: { resolve: (assigned: Assigned) => void; reject: (error: unknown) => void };
}

/** At most this many joins are assigned by one transaction (the rest wait for the next). */
const BATCH_LIMIT = 64;
/** Per database handle and study: the joins of this process waiting for their assignment. */
const waiting = new WeakMap<Db, Map<string, Candidate[]>>();

/**
 * A new participant's row: their condition and their stand-in identity (never signed in: no
 * password, no session of better-auth, and an address under the reserved `.invalid` domain, which
 * the table requires, that no mail can reach). A process assigns one study's joins one transaction
 * at a time: the joins that arrive while one runs wait and are assigned together by the next
 * ({@link assignBatch}), in the order they arrived, so a crowd joining at once waits for a few
 * turns of the study's lock instead of one per participant, and holds one pooled connection while
 * it does, not one per participant.
 */
function assign(db: Db, study: StudyRow, pid: string | undefined, join: JoinStudy): Promise<Assigned> {
  return new Promise((resolve, reject) => {
    const candidate: Candidate = {
      participantId: `P-${randomBytes(6).toString('hex')}`,
      userId: `participant_${randomUUID()}`,
      pid: pid ?? null,
      prolificPid: join.PROLIFIC_PID ?? null,
      prolificStudyId: join.STUDY_ID ?? null,
      prolificSessionId: join.SESSION_ID ?? null,
      settle: { resolve, reject },
    };
    let byStudy = waiting.get(db);
    if (!byStudy) waiting.set(db, (byStudy = new Map<string, Candidate[]>()));
    const queue = byStudy.get(study.id);
    if (queue) {
      queue.push(candidate);
      return;
    }
    const started: Candidate[] = [candidate];
    byStudy.set(study.id, started);
    void drain(db, study.id, byStudy, started);
  });
}

/** Assigns the study's waiting joins, a batch at a time, until none are left. */
async function drain(db: Db, studyId: string, byStudy: Map<string, Candidate[]>, queue: Candidate[]): Promise<void> {
  // Let the joins that arrive in the same tick join the first batch.
  await Promise.resolve();
  while (queue.length > 0) {
    const batch = queue.splice(0, BATCH_LIMIT);
    try {
      const outcomes = await assignBatch(db, studyId, batch);
      batch.forEach((candidate, i) => {
        const outcome = outcomes[i]!;
        if (outcome instanceof Error) candidate.settle.reject(outcome);
        else candidate.settle.resolve(outcome);
      });
    } catch (error) {
      for (const candidate of batch) candidate.settle.reject(error);
    }
  }
  byStudy.delete(studyId);
}

/**
 * Assigns a batch of joins in one transaction sent in one go (pipelinedTransaction): the first
 * statement takes the study's row lock; the second, under a snapshot taken once the lock is granted,
 * answers a join whose pid is already a participant (or is the pid of an earlier join of the batch)
 * with that participant, and, if the study is still open, gives each other join the condition
 * furthest below its share by weight, one after another, and inserts their identities and rows. The
 * lock is held only while the server runs the second statement and commits: no round trip to the
 * application happens under it. One answer per join, in order: the participant, or the error.
 *
 * One after another, join n takes the condition whose count over weight, counting the joins before
 * it, is the smallest (ties: the first condition). That is the n-th smallest of the slots (condition,
 * k ≥ 0) ordered by (assigned + k) / weight, then position: each condition's slots rise with k, so
 * taking the smallest slot left is always taking the smallest next slot of some condition.
 */
async function assignBatch(db: Db, studyId: string, batch: readonly Candidate[]): Promise<(Assigned | Error)[]> {
  const input = JSON.stringify(
    batch.map((c, ord) => ({
      ord,
      participant_id: c.participantId,
      user_id: c.userId,
      pid: c.pid,
      prolific_pid: c.prolificPid,
      prolific_study_id: c.prolificStudyId,
      prolific_session_id: c.prolificSessionId,
    })),
  );
  const [, rows] = await pipelinedTransaction(db, [
    sql`select id from ${studies} where id = ${studyId} for update`,
    sql`
      with input as (
        select * from jsonb_to_recordset(${input}::jsonb) as i(ord int, participant_id text, user_id text, pid text,
          prolific_pid text, prolific_study_id text, prolific_session_id text)
      ),
      existing as (
        select participant_id, user_id, thread_id, status, pid from ${studyParticipants}
        where study_id = ${studyId} and pid in (select pid from input)
      ),
      fresh as (
        select i.*, row_number() over (order by i.ord) as n from input i
        where exists (select 1 from ${studies} s where s.id = ${studyId} and s.status = 'open')
          and not exists (select 1 from existing e where e.pid = i.pid)
          and not exists (select 1 from input j where j.pid = i.pid and j.ord < i.ord)
      ),
      counts as (
        select c.id, c.position, c.weight,
          (select count(*) from ${studyParticipants} sp where sp.study_id = c.study_id and sp.condition_id = c.id) as assigned
        from ${studyConditions} c where c.study_id = ${studyId}
      ),
      -- exact: two different fractions with denominators below 2^31 differ by far more than 1e-40
      slots as (
        select c.id, row_number() over (order by (c.assigned + k)::numeric(80, 40) / c.weight, c.position) as n
        from counts c, generate_series(0, (select count(*) from fresh) - 1) as k
      ),
      picked as (
        select f.*, s.id as condition_id from fresh f join slots s on s.n = f.n
      ),
      stand_in as (
        insert into ${user} (id, name, email)
        select user_id, participant_id, participant_id || '@participants.invalid' from picked
      ),
      joined as (
        insert into ${studyParticipants}
          (participant_id, study_id, condition_id, pid, prolific_pid, prolific_study_id, prolific_session_id, user_id)
        select participant_id, ${studyId}::uuid, condition_id, pid, prolific_pid, prolific_study_id, prolific_session_id, user_id
        from picked
        returning participant_id, user_id, thread_id, status, pid
      )
      select i.ord, r.participant_id, r.user_id, r.thread_id, r.status,
        (select status from ${studies} where id = ${studyId}) as study_status,
        exists (select 1 from counts) as has_conditions
      from input i
      left join lateral (
        select participant_id, user_id, thread_id, status from joined j where j.participant_id = i.participant_id or j.pid = i.pid
        union all
        select participant_id, user_id, thread_id, status from existing e where e.pid = i.pid
        limit 1
      ) r on true
      order by i.ord`,
  ]);
  type Row = {
    ord: number;
    participant_id: string | null;
    user_id: string | null;
    thread_id: string | null;
    status: ParticipantSession['status'] | null;
    study_status: string;
    has_conditions: boolean;
  };
  return (rows as Row[]).map((row) => {
    if (row.participant_id !== null && row.status !== null) {
      try {
        return resumed({ participantId: row.participant_id, userId: row.user_id, threadId: row.thread_id, status: row.status });
      } catch (error) {
        return error as Error;
      }
    }
    if (row.study_status === 'open' && !row.has_conditions) return new AppError('conflict', 'This study has no conditions');
    return AppError.forbidden('This study is closed and admits no one new');
  });
}

/**
 * The participant's family: the researcher's, seeded from the study's workspace, the participant an
 * editor of it, and this join's session. Exactly one family sticks to a participant, however many
 * of their joins race here: the one that claims the participant's row makes it (answers its id), the
 * others roll theirs back (null).
 */
async function createFamily(db: Db, study: StudyRow, participant: Assigned, sessionToken: string): Promise<string | null> {
  if (participant.userId === null) throw AppError.forbidden('You have withdrawn from this study');
  const userId = participant.userId;
  return db
    .transaction(async (tx) => {
      const family = await createRootThread(tx, { userId: study.ownerId, title: study.title });
      // Claims the row, makes the participant an editor and stores the session, in one statement.
      const claimed = await tx.execute(sql`
        with claimed as (
          update ${studyParticipants} set thread_id = ${family.threadId}, activity_version = activity_version + 1
          where participant_id = ${participant.participantId} and thread_id is null and status <> 'withdrawn'
          returning participant_id
        ),
        member as (
          insert into ${familyMembers} (family_id, user_id, role) select ${family.threadId}, ${userId}, 'editor' from claimed
        ),
        session as (
          insert into ${studySessions} (token_hash, participant_id) select ${hashSecretToken(sessionToken)}, participant_id from claimed
        )
        select participant_id from claimed`);
      if (claimed.length === 0) tx.rollback();
      // A family made here: nobody can listen to it before this commits, so its seeding notifies no one.
      await writeWorkspace({ tx }, { threadId: family.threadId, author: { actor: 'system', actorId: null, via: 'import' }, edits: seedEdits(study.seed), isNewFamily: true });
      return family.threadId;
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return null;
      throw error;
    });
}

/** The family another join of the same participant made (withdrawn meanwhile: refused). */
async function claimedFamily(db: Db, participantId: string): Promise<string> {
  const [row] = await db.select({ threadId: studyParticipants.threadId }).from(studyParticipants).where(eq(studyParticipants.participantId, participantId));
  if (!row?.threadId) throw AppError.forbidden('You have withdrawn from this study');
  return row.threadId;
}

function seedEdits(seed: (typeof studies.$inferSelect)['seed']): WorkspaceEdit[] {
  return [
    ...(seed.objective ? [{ kind: 'objective' as const, text: seed.objective }] : []),
    ...(seed.document.title !== '' || seed.document.content !== '' ? [{ kind: 'document' as const, title: seed.document.title, content: seed.document.content }] : []),
    ...seed.preferences.map((p) => ({ kind: 'preference_create' as const, text: p.text, locked: p.locked })),
    ...seed.todos.map((t) => ({ kind: 'todo_create' as const, text: t.text, depth: t.depth, done: t.done })),
  ];
}

/**
 * The participant a session cookie stands for, or null. A state-changing request (`touch`) marks
 * them active and stamps their last activity in the same statement.
 */
export async function findParticipantSession(db: Db, token: string, options: { touch: boolean }): Promise<ParticipantSession | null> {
  if (!isSecretToken(token)) return null;
  const hash = hashSecretToken(token);
  type Row = { participant_id: string; study_id: string; user_id: string | null; thread_id: string | null; status: ParticipantSession['status'] };
  // Past the study's time limit a participant has timed out: a write stamps it, a read sees it.
  const rows = options.touch
    ? await db.execute<Row>(sql`
        update ${studyParticipants} sp
           set last_activity_at = now(), activity_version = sp.activity_version + 1,
               status = case
                 when sp.status in ('consented', 'active') and s.time_limit_minutes is not null
                      and now() > sp.started_at + s.time_limit_minutes * interval '1 minute' then 'timed_out'
                 when sp.status = 'consented' then 'active'
                 else sp.status end
          from ${studySessions} ss, ${studies} s
         where ss.token_hash = ${hash} and sp.participant_id = ss.participant_id and s.id = sp.study_id
        returning sp.participant_id, sp.study_id, sp.user_id, sp.thread_id, sp.status`)
    : await db.execute<Row>(sql`
        select sp.participant_id, sp.study_id, sp.user_id, sp.thread_id, sp.status
          from ${studySessions} ss join ${studyParticipants} sp on sp.participant_id = ss.participant_id
         where ss.token_hash = ${hash}`);
  const row = rows[0];
  if (!row || row.user_id === null || row.thread_id === null || row.status === 'withdrawn') return null;
  return { participantId: row.participant_id, studyId: row.study_id, userId: row.user_id, familyId: row.thread_id, status: row.status };
}
