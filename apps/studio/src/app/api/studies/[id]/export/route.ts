import { PathIdSchema, StudyExportQuerySchema } from '@trellis/domain';
import { exportStudyDataset } from '@trellis/services';
import { attachmentResponse } from '@/server/attachment';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** A study as one research dataset (a Frictionless Data Package, streamed). */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/studies/{id}/export',
    tag: 'studies',
    summary: "The study's dataset: every participant's family plus `participants` and `conditions` tables",
    description:
      'The research dataset (docs/dataset.md) of every participant’s family, pseudonymised always; `families.participant_id` joins `participants`, whose `condition` joins `conditions`. `include_pid=true` adds the pid and Prolific ids. Withdrawn participants are left out with their families.',
    params: { id: PathIdSchema },
    query: StudyExportQuerySchema,
    contentType: 'application/zip',
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) =>
    attachmentResponse(await exportStudyDataset(ctx.deps, actor, { studyId: params.id, includePid: query.include_pid })),
);
