import { SharedViewQuerySchema, SharedViewSchema } from '@trellis/domain';
import { getSharedView } from '@trellis/services';
import { SHARED_ERRORS, ShareTokenSchema, sharedReader } from '@/server/shared-link';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(
  {
    method: 'GET',
    path: '/api/shared/{token}',
    tag: 'sharing',
    summary: 'What a read-only link shows (no account needed): the transcript up to its step, the workspace after it, its trajectory and authorship',
    description:
      'A path link answers that path alone, up to the shared step, with `newer_steps` when the path has moved on; a family link answers the whole family and may open any of its paths (`thread`) and steps (`turn`). Expired or revoked links answer 404.',
    params: { token: ShareTokenSchema },
    query: SharedViewQuerySchema,
    response: SharedViewSchema,
    errors: SHARED_ERRORS,
  },
  async ({ request, params, query }) => {
    const ctx = await sharedReader(request);
    return getSharedView(ctx.deps, { ...query, token: params.token });
  },
);
