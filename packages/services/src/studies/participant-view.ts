// What a participant's pages read: the study's consent before joining, and once joined the few
// facts their studio needs (instructions, the clock, whether it may branch) — never the
// condition's name, model, prompt or tools.
import { and, eq } from 'drizzle-orm';
import { AppError, type ParticipantView, type StudyLanding } from '@trellis/domain';
import { studies, studyConditions, studyParticipants } from '@trellis/db';
import type { ServiceDeps } from '../deps';
import { effectiveStatus } from './study-participants';

/** The consent page of an open or closed study; a draft, like a slug that does not exist, is 404. */
export async function readStudyLanding(deps: Pick<ServiceDeps, 'db'>, input: { slug: string }): Promise<StudyLanding> {
  const [study] = await deps.db
    .select({ title: studies.title, consent: studies.consentMarkdown, status: studies.status })
    .from(studies)
    .where(eq(studies.slug, input.slug));
  if (!study || study.status === 'draft') throw AppError.notFound('Study');
  return { title: study.title, consent: study.consent, status: study.status };
}

/** A participant's own view of their study, through the link they joined by (another study's slug is 404). */
export async function readParticipantView(
  deps: Pick<ServiceDeps, 'db'>,
  participant: { participantId: string; studyId: string },
  input: { slug: string },
): Promise<ParticipantView> {
  const [row] = await deps.db
    .select({ participant: studyParticipants, study: studies, branching: studyConditions.branching })
    .from(studyParticipants)
    .innerJoin(studies, eq(studies.id, studyParticipants.studyId))
    .innerJoin(studyConditions, eq(studyConditions.id, studyParticipants.conditionId))
    .where(and(eq(studyParticipants.participantId, participant.participantId), eq(studyParticipants.studyId, participant.studyId)));
  if (!row || row.study.slug !== input.slug || row.participant.threadId === null) throw AppError.notFound('Study');
  const status = effectiveStatus(row.participant.status, row.participant.startedAt.getTime(), row.study.timeLimitMinutes);
  if (status === 'withdrawn') throw AppError.notFound('Study');
  return {
    thread_id: row.participant.threadId,
    title: row.study.title,
    instructions: row.study.instructionsMarkdown,
    status,
    started: row.participant.startedAt.toISOString(),
    time_limit_minutes: row.study.timeLimitMinutes,
    min_minutes: row.study.minMinutes,
    branching: row.branching,
    completion: status === 'finished' ? { code: row.study.completionCode, redirect_url: row.study.completionRedirectUrl } : null,
  };
}
