import { PathIdSchema } from '@trellis/domain';
import { withdrawParticipant } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const DELETE = defineRoute(
  {
    method: 'DELETE',
    path: '/api/studies/{id}/participants/{participant_id}',
    tag: 'studies',
    summary: 'Withdraw a participant: their family and everything in it is deleted; the row stays as `withdrawn`',
    params: { id: PathIdSchema, participant_id: PathIdSchema },
    status: 204,
    errors: OWNED,
  },
  async ({ params, ctx, actor }) => {
    await withdrawParticipant(ctx.deps, actor, { studyId: params.id, participantId: params.participant_id });
    return new Response(null, { status: 204 });
  },
);
