// A study as one dataset: the research dataset of every participant's family, pseudonymised always,
// with `participants` and `conditions` tables that `families.participant_id` joins.
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm';
import { studyConditions, studyParticipants } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { exportDataset, type DatasetExport } from '../export/export-dataset';
import { requireOwnStudy, type StudyOwner } from './manage-studies';
import { effectiveStatus } from './study-participants';

export async function exportStudyDataset(
  deps: Pick<ServiceDeps, 'db'>,
  owner: StudyOwner,
  input: { studyId: string; includePid: boolean },
): Promise<DatasetExport> {
  const study = await requireOwnStudy(deps.db, owner, input.studyId);
  const [conditions, participants] = await Promise.all([
    deps.db.select().from(studyConditions).where(eq(studyConditions.studyId, study.id)).orderBy(asc(studyConditions.position)),
    // A withdrawn participant leaves nothing behind: neither their family nor their row.
    deps.db
      .select()
      .from(studyParticipants)
      .where(and(eq(studyParticipants.studyId, study.id), ne(studyParticipants.status, 'withdrawn'), isNotNull(studyParticipants.threadId)))
      .orderBy(asc(studyParticipants.startedAt), asc(studyParticipants.participantId)),
  ]);
  const conditionName = new Map(conditions.map((c) => [c.id, c.name]));
  return exportDataset(deps, owner, {
    pseudonymize: true,
    study: {
      title: study.title,
      includePid: input.includePid,
      participantOf: new Map(participants.map((p) => [p.threadId!, p.participantId])),
      participants: participants.map((p) => ({
        participant_id: p.participantId,
        family_id: p.threadId,
        condition: conditionName.get(p.conditionId) ?? null,
        status: effectiveStatus(p.status, p.startedAt.getTime(), study.timeLimitMinutes),
        started_at: p.startedAt.toISOString(),
        finished_at: p.finishedAt?.toISOString() ?? null,
        last_activity_at: p.lastActivityAt.toISOString(),
        ...(input.includePid && { pid: p.pid, prolific_study_id: p.prolificStudyId, prolific_session_id: p.prolificSessionId }),
      })),
      conditions: conditions.map((c) => ({
        name: c.name,
        model: c.model,
        system_prompt: c.systemPrompt,
        tools: c.tools === null ? null : c.tools.join(' '),
        branching: c.branching,
        weight: c.weight,
      })),
    },
  });
}
