import { PathIdSchema, StudyParticipantListSchema } from '@trellis/domain';
import { listStudyParticipants } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/studies/{id}/participants',
    tag: 'studies',
    summary: "The study's participants, one row each (pseudonymous), with counts per condition",
    params: { id: PathIdSchema },
    response: StudyParticipantListSchema,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => listStudyParticipants(ctx.deps, actor, { studyId: params.id }),
);
