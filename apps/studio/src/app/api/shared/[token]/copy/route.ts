import { CopySharedSchema, SharedCopySchema } from '@trellis/domain';
import { copySharedPath } from '@trellis/services';
import { ShareTokenSchema } from '@/server/shared-link';
import { AUTHED, JSON_BODY, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/shared/{token}/copy',
    tag: 'sharing',
    summary: "Continue in my account: a new family of the caller's, seeded with the shared path as of a step",
    description:
      'The new family holds the transcript up to the step and the workspace after it; it grants nothing on the original. `turn` may name an earlier step of the link.',
    params: { token: ShareTokenSchema },
    body: CopySharedSchema,
    response: SharedCopySchema,
    status: 201,
    errors: [...AUTHED, ...JSON_BODY, 'not_found', 'upstream_failed', 'unavailable'],
  },
  async ({ params, body, ctx, actor }) => copySharedPath(ctx.deps, actor, { token: params.token, turn: body.turn }),
);
