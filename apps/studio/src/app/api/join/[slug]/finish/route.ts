import { AppError, PathIdSchema, StudyCompletionSchema } from '@trellis/domain';
import { finishStudy } from '@trellis/services';
import { AUTHED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/join/{slug}/finish',
    tag: 'studies',
    summary: "A participant's Finish: after the study's min_minutes, the completion code and redirect",
    description: 'Called with the participant’s session cookie. Before `min_minutes` it answers 409 with `details.minutes_left`; called again once finished, it answers the same completion.',
    forParticipants: true,
    admitsFinishedParticipant: true,
    params: { slug: PathIdSchema },
    response: StudyCompletionSchema,
    errors: [...AUTHED, 'unsupported_media_type', 'conflict'],
  },
  async ({ params, ctx, actor }) => {
    if (!actor.participant) throw AppError.notFound('Study');
    return finishStudy(ctx.deps, actor.participant, { slug: params.slug });
  },
);
