// The researcher's side of a study (docs/studies.md): create, read, edit a draft, open and close.
// A study is its owner's alone: anyone else — another researcher, a participant — gets the 404 a
// study that does not exist gets.
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { AppError, type CreateStudy, type Study, type StudyCreated, type StudyList, type StudyStatus, type UpdateStudy } from '@trellis/domain';
import { studies, studyConditions, studyParticipants, type DbOrTx } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { requireItemId } from '../workspace/ids';

/** The researcher acting on their studies. */
export interface StudyOwner {
  userId: string;
}

type StudyRow = typeof studies.$inferSelect;
type ConditionRow = typeof studyConditions.$inferSelect;

/** Where a participant lands: the one open link of a study. */
function joinUrl(slug: string): string {
  return `/join/s/${slug}`;
}

/** 96 random bits, URL-safe: a link nobody guesses, short enough to hand out. */
function mintSlug(): string {
  return randomBytes(12).toString('base64url');
}

/** The order a study's status may move in: forward only. */
const NEXT_STATUS: Record<StudyStatus, StudyStatus | null> = { draft: 'open', open: 'closed', closed: null };

export async function createStudy(deps: Pick<ServiceDeps, 'db' | 'modelNames'>, owner: StudyOwner, input: CreateStudy): Promise<StudyCreated> {
  assertModels(deps.modelNames, input.conditions);
  const slug = mintSlug();
  const id = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(studies)
      .values({
        ownerId: owner.userId,
        title: input.title,
        consentMarkdown: input.consent,
        instructionsMarkdown: input.instructions,
        seed: input.seed,
        slug,
        timeLimitMinutes: input.time_limit_minutes ?? null,
        minMinutes: input.min_minutes ?? null,
        completionCode: input.completion?.code ?? null,
        completionRedirectUrl: input.completion?.redirect_url ?? null,
      })
      .returning({ id: studies.id });
    await insertConditions(tx, row!.id, input.conditions);
    return row!.id;
  });
  return { study_id: id, status: 'draft', join_url: joinUrl(slug) };
}

export async function listStudies(deps: Pick<ServiceDeps, 'db'>, owner: StudyOwner): Promise<StudyList> {
  const rows = await deps.db
    .select({
      study: studies,
      participants: sql<number>`(select count(*)::int from ${studyParticipants} sp where sp.study_id = ${studies.id})`,
    })
    .from(studies)
    .where(eq(studies.ownerId, owner.userId))
    .orderBy(desc(studies.createdAt), desc(studies.id));
  return {
    studies: rows.map(({ study, participants }) => ({
      study_id: study.id,
      title: study.title,
      status: study.status,
      join_url: joinUrl(study.slug),
      created_at: study.createdAt.toISOString(),
      participants,
    })),
  };
}

export async function getStudy(deps: Pick<ServiceDeps, 'db'>, owner: StudyOwner, input: { studyId: string }): Promise<Study> {
  const study = await requireOwnStudy(deps.db, owner, input.studyId);
  return toStudy(deps.db, study);
}

/**
 * Edits a draft (every field), or moves the status one step forward. A study that is open or
 * closed keeps what participants were shown and assigned to: only its status moves.
 */
export async function updateStudy(
  deps: Pick<ServiceDeps, 'db' | 'modelNames'>,
  owner: StudyOwner,
  input: { studyId: string; patch: UpdateStudy },
): Promise<Study> {
  const { patch } = input;
  if (patch.conditions) assertModels(deps.modelNames, patch.conditions);
  const study = await deps.db.transaction(async (tx) => {
    const current = await requireOwnStudy(tx, owner, input.studyId, { lock: true });
    const edits = Object.keys(patch).filter((key) => key !== 'status');
    if (edits.length > 0 && current.status !== 'draft') {
      throw new AppError('conflict', `Only a draft study can be edited; this one is ${current.status}`);
    }
    if (patch.status !== undefined && patch.status !== current.status && NEXT_STATUS[current.status] !== patch.status) {
      throw new AppError('conflict', `A study moves draft → open → closed; this one is ${current.status}`);
    }
    const [row] = await tx
      .update(studies)
      .set({
        ...(patch.title !== undefined && { title: patch.title }),
        ...(patch.consent !== undefined && { consentMarkdown: patch.consent }),
        ...(patch.instructions !== undefined && { instructionsMarkdown: patch.instructions }),
        ...(patch.seed !== undefined && { seed: patch.seed }),
        ...(patch.time_limit_minutes !== undefined && { timeLimitMinutes: patch.time_limit_minutes }),
        ...(patch.min_minutes !== undefined && { minMinutes: patch.min_minutes }),
        ...(patch.completion?.code !== undefined && { completionCode: patch.completion.code }),
        ...(patch.completion?.redirect_url !== undefined && { completionRedirectUrl: patch.completion.redirect_url }),
        ...(patch.status !== undefined && { status: patch.status }),
        updatedAt: new Date(),
      })
      .where(eq(studies.id, current.id))
      .returning();
    if (patch.conditions) {
      // A draft has no participants, so its conditions are replaced whole.
      await tx.delete(studyConditions).where(eq(studyConditions.studyId, current.id));
      await insertConditions(tx, current.id, patch.conditions);
    }
    return row!;
  });
  return toStudy(deps.db, study);
}

/** The caller's own study, or the 404 of a study that does not exist. */
export async function requireOwnStudy(db: DbOrTx, owner: StudyOwner, studyId: string, options: { lock?: boolean } = {}): Promise<StudyRow> {
  requireItemId(studyId, 'Study');
  const query = db
    .select()
    .from(studies)
    .where(and(eq(studies.id, studyId), eq(studies.ownerId, owner.userId)));
  const [row] = await (options.lock ? query.for('update') : query);
  if (!row) throw AppError.notFound('Study');
  return row;
}

async function insertConditions(db: DbOrTx, studyId: string, conditions: CreateStudy['conditions']): Promise<void> {
  await db.insert(studyConditions).values(
    conditions.map((c, position) => ({
      studyId,
      position,
      name: c.name,
      model: c.model,
      systemPrompt: c.system_prompt ?? null,
      tools: c.tools ?? null,
      branching: c.branching,
      weight: c.weight,
    })),
  );
}

function assertModels(modelNames: readonly string[], conditions: CreateStudy['conditions']): void {
  const issues = conditions.flatMap((c, i) =>
    modelNames.includes(c.model) ? [] : [{ path: `conditions.${i}.model`, message: `is not a model this server runs (${modelNames.join(', ')})` }],
  );
  if (issues.length > 0) throw AppError.validation(issues, 'A condition names a model this server is not configured for');
}

async function conditionsOf(db: DbOrTx, studyIds: string[]): Promise<(ConditionRow & { participants: number })[]> {
  if (studyIds.length === 0) return [];
  const rows = await db
    .select({ condition: studyConditions, participants: count(studyParticipants.participantId) })
    .from(studyConditions)
    .leftJoin(studyParticipants, eq(studyParticipants.conditionId, studyConditions.id))
    .where(inArray(studyConditions.studyId, studyIds))
    .groupBy(studyConditions.id)
    .orderBy(asc(studyConditions.position));
  return rows.map((r) => ({ ...r.condition, participants: r.participants }));
}

async function toStudy(db: DbOrTx, study: StudyRow): Promise<Study> {
  const conditions = await conditionsOf(db, [study.id]);
  return {
    study_id: study.id,
    title: study.title,
    status: study.status,
    join_url: joinUrl(study.slug),
    consent: study.consentMarkdown,
    instructions: study.instructionsMarkdown,
    seed: study.seed,
    conditions: conditions.map((c) => ({
      name: c.name,
      model: c.model,
      system_prompt: c.systemPrompt,
      tools: c.tools,
      branching: c.branching,
      weight: c.weight,
      participants: c.participants,
    })),
    time_limit_minutes: study.timeLimitMinutes,
    min_minutes: study.minMinutes,
    completion: { code: study.completionCode, redirect_url: study.completionRedirectUrl },
    created_at: study.createdAt.toISOString(),
    updated_at: study.updatedAt.toISOString(),
  };
}
