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

/**
 * A new participant's row: their condition and their stand-in identity (never signed in: no
 * password, no session of better-auth, and an address under the reserved `.invalid` domain, which
 * the table requires, that no mail can reach). One transaction sent in one go (pipelinedTransaction):
 * the first statement takes the study's row lock; the second, under a snapshot taken once the lock
 * is granted, finds a participant of the same pid who joined meanwhile (then answers them and writes
 * nothing), or else picks the condition and inserts the identity and the participant if the study is
 * still open. The lock is held only while the server runs the second statement and commits: no
 * round trip to the application happens under it.
 */
async function assign(db: Db, study: StudyRow, pid: string | undefined, join: JoinStudy): Promise<Assigned> {
  const participantId = `P-${randomBytes(6).toString('hex')}`;
  const userId = `participant_${randomUUID()}`;
  const [, rows] = await pipelinedTransaction(db, [
    sql`select id from ${studies} where id = ${study.id} for update`,
    sql`
      with existing as (
        select participant_id, user_id, thread_id, status from ${studyParticipants}
        where study_id = ${study.id} and pid = ${pid ?? null}::text
      ),
      counts as (
        select c.id, c.position, c.weight,
          (select count(*) from ${studyParticipants} sp where sp.study_id = c.study_id and sp.condition_id = c.id) as assigned
        from ${studyConditions} c where c.study_id = ${study.id}
      ),
      -- furthest below its share: no other condition has a smaller assigned/weight (compared
      -- without division), nor the same one at an earlier position
      pick as (
        select c.id from counts c
        where not exists (
          select 1 from counts d
          where d.assigned * c.weight < c.assigned * d.weight
             or (d.assigned * c.weight = c.assigned * d.weight and d.position < c.position))
      ),
      admitted as (
        select p.id as condition_id from ${studies} s, pick p
        where s.id = ${study.id} and s.status = 'open' and not exists (select 1 from existing)
      ),
      stand_in as (
        insert into ${user} (id, name, email)
        select ${userId}, ${participantId}, ${`${participantId}@participants.invalid`} from admitted
        returning id
      ),
      joined as (
        insert into ${studyParticipants}
          (participant_id, study_id, condition_id, pid, prolific_pid, prolific_study_id, prolific_session_id, user_id)
        select ${participantId}, ${study.id}::uuid, a.condition_id, ${pid ?? null}::text, ${join.PROLIFIC_PID ?? null}::text,
          ${join.STUDY_ID ?? null}::text, ${join.SESSION_ID ?? null}::text, s.id
        from admitted a, stand_in s
        returning participant_id, user_id, thread_id, status
      )
      select participant_id, user_id, thread_id, status, null as study_status, false as no_condition from joined
      union all
      select participant_id, user_id, thread_id, status, null, false from existing
      union all
      select null, null, null, null, s.status, not exists (select 1 from pick) from ${studies} s
      where s.id = ${study.id} and not exists (select 1 from existing) and not exists (select 1 from admitted)`,
  ]);
  const row = rows![0] as
    | { participant_id: string | null; user_id: string | null; thread_id: string | null; status: ParticipantSession['status'] | null; study_status: string | null; no_condition: boolean }
    | undefined;
  if (row?.participant_id && row.status) return resumed({ participantId: row.participant_id, userId: row.user_id, threadId: row.thread_id, status: row.status });
  if (row?.study_status === 'open' && row.no_condition) throw new AppError('conflict', 'This study has no conditions');
  throw AppError.forbidden('This study is closed and admits no one new');
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
          update ${studyParticipants} set thread_id = ${family.threadId}
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
      await writeWorkspace({ tx }, { threadId: family.threadId, author: { actor: 'system', actorId: null, via: 'import' }, edits: seedEdits(study.seed) });
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
           set last_activity_at = now(),
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
