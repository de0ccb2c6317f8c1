// The participant's side of a study's open link (docs/studies.md): consent, assignment to a
// condition, their own family seeded from the study's workspace, and a session scoped to it.
import { randomBytes, randomUUID } from 'node:crypto';
import { TransactionRollbackError, and, eq, isNull, ne, sql } from 'drizzle-orm';
import { AppError, type JoinStudy, type StudyJoined } from '@trellis/domain';
import { familyMembers, studies, studyConditions, studyParticipants, studySessions, user, type Db, type DbOrTx } from '@trellis/db';
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
  const [study] = await db.select().from(studies).where(eq(studies.slug, input.slug));
  if (!study || study.status === 'draft') throw AppError.notFound('Study');
  const participant = (await findResumable(db, study.id, pid, input.sessionToken)) ?? (await assign(db, study, pid, input.join));
  const threadId = participant.threadId ?? (await createFamily(db, study, participant));
  return { thread_id: threadId, participantId: participant.participantId, sessionToken: await newSession(db, participant.participantId) };
}

type StudyRow = typeof studies.$inferSelect;
interface Assigned {
  participantId: string;
  userId: string | null;
  threadId: string | null;
}

/** A new participant's row, under the study's lock: the condition, their stand-in identity. */
async function assign(db: Db, study: StudyRow, pid: string | undefined, join: JoinStudy): Promise<Assigned> {
  return db.transaction(async (tx) => {
    const participantId = `P-${randomBytes(6).toString('hex')}`;
    const userId = `participant_${randomUUID()}`;
    // A stand-in identity, never signed in: no password, no session of better-auth, and an address
    // under the reserved `.invalid` domain (the table requires one) that no mail can reach.
    await tx.insert(user).values({ id: userId, name: participantId, email: `${participantId}@participants.invalid` });
    const [locked] = await tx.select({ status: studies.status }).from(studies).where(eq(studies.id, study.id)).for('update');
    // The same pid joining twice at once: the second finds the first's row once the lock is its.
    const again = pid === undefined ? null : await findResumable(tx, study.id, pid, undefined);
    if (again) {
      tx.rollback();
      return again;
    }
    if (locked?.status !== 'open') throw AppError.forbidden('This study is closed and admits no one new');
    const conditionId = await nextCondition(tx, study.id);
    await tx.insert(studyParticipants).values({
      participantId,
      studyId: study.id,
      conditionId,
      pid: pid ?? null,
      prolificPid: join.PROLIFIC_PID ?? null,
      prolificStudyId: join.STUDY_ID ?? null,
      prolificSessionId: join.SESSION_ID ?? null,
      userId,
    });
    return { participantId, userId, threadId: null };
  }).catch(async (error: unknown) => {
    // The rollback above: answer the participant that was there first.
    if (pid !== undefined && error instanceof TransactionRollbackError) {
      const existing = await findResumable(db, study.id, pid, undefined);
      if (existing) return existing;
    }
    throw error;
  });
}

/**
 * The participant's family: the researcher's, seeded from the study's workspace, the participant an
 * editor of it. Exactly one family sticks to a participant, however many of their joins race here.
 */
async function createFamily(db: Db, study: StudyRow, participant: Assigned): Promise<string> {
  if (participant.userId === null) throw AppError.forbidden('You have withdrawn from this study');
  const userId = participant.userId;
  const made = await db
    .transaction(async (tx) => {
      const family = await createRootThread(tx, { userId: study.ownerId, title: study.title });
      const claimed = await tx
        .update(studyParticipants)
        .set({ threadId: family.threadId })
        .where(and(eq(studyParticipants.participantId, participant.participantId), isNull(studyParticipants.threadId), ne(studyParticipants.status, 'withdrawn')))
        .returning({ threadId: studyParticipants.threadId });
      if (claimed.length === 0) tx.rollback();
      await tx.insert(familyMembers).values({ familyId: family.threadId, userId, role: 'editor' });
      await writeWorkspace({ tx }, { threadId: family.threadId, author: { actor: 'system', actorId: null, via: 'import' }, edits: seedEdits(study.seed) });
      return family.threadId;
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return null;
      throw error;
    });
  if (made !== null) return made;
  const [row] = await db.select({ threadId: studyParticipants.threadId }).from(studyParticipants).where(eq(studyParticipants.participantId, participant.participantId));
  if (!row?.threadId) throw AppError.forbidden('You have withdrawn from this study');
  return row.threadId;
}

async function findResumable(tx: DbOrTx, studyId: string, pid: string | undefined, sessionToken: string | undefined): Promise<Assigned | null> {
  const byPid = pid !== undefined ? and(eq(studyParticipants.studyId, studyId), eq(studyParticipants.pid, pid)) : undefined;
  const bySession =
    pid === undefined && sessionToken !== undefined && isSecretToken(sessionToken)
      ? and(
          eq(studyParticipants.studyId, studyId),
          sql`${studyParticipants.participantId} = (select participant_id from ${studySessions} where token_hash = ${hashSecretToken(sessionToken)})`,
        )
      : undefined;
  const where = byPid ?? bySession;
  if (!where) return null;
  const [row] = await tx
    .select({ participantId: studyParticipants.participantId, userId: studyParticipants.userId, threadId: studyParticipants.threadId, status: studyParticipants.status })
    .from(studyParticipants)
    .where(where);
  if (!row) return null;
  // A withdrawn participant's family is gone; the same pid does not come back to it.
  if (row.status === 'withdrawn') throw AppError.forbidden('You have withdrawn from this study');
  return { participantId: row.participantId, userId: row.userId, threadId: row.threadId };
}

async function nextCondition(tx: DbOrTx, studyId: string): Promise<string> {
  const rows = await tx
    .select({
      id: studyConditions.id,
      weight: studyConditions.weight,
      assigned: sql<number>`(select count(*)::int from ${studyParticipants} sp where sp.condition_id = ${studyConditions.id})`,
    })
    .from(studyConditions)
    .where(eq(studyConditions.studyId, studyId))
    .orderBy(studyConditions.position);
  let best = rows[0];
  if (!best) throw new AppError('conflict', 'This study has no conditions');
  // Furthest below its share: the smallest assigned/weight (compared without division).
  for (const row of rows) if (row.assigned * best.weight < best.assigned * row.weight) best = row;
  return best.id;
}

async function newSession(tx: DbOrTx, participantId: string): Promise<string> {
  const token = mintSecretToken();
  await tx.insert(studySessions).values({ tokenHash: hashSecretToken(token), participantId });
  return token;
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
