import { AppError, ParticipantViewSchema, PathIdSchema } from '@trellis/domain';
import { readParticipantView } from '@trellis/services';
import { AUTHED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/join/{slug}/me',
    tag: 'studies',
    summary: "A participant's own view of their study: their family, the instructions, the clock, whether they may branch",
    description:
      'Called with the participant’s session cookie. `branching: false` tells the studio to offer no continue from here, edit or regenerate; the condition itself is never named. `completion` is set once they have finished.',
    forParticipants: true,
    admitsFinishedParticipant: true,
    params: { slug: PathIdSchema },
    response: ParticipantViewSchema,
    errors: AUTHED,
  },
  async ({ params, ctx, actor }) => {
    if (!actor.participant) throw AppError.notFound('Study');
    return readParticipantView(ctx.deps, actor.participant, { slug: params.slug });
  },
);
