import { z } from 'zod';
import { ReplayQuerySchema, ReplaySchema } from '@trellis/domain';
import { replaySharedChange } from '@trellis/services';
import { SHARED_ERRORS, ShareTokenSchema, sharedReader } from '@/server/shared-link';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(
  {
    method: 'GET',
    path: '/api/shared/{token}/replay',
    tag: 'sharing',
    summary: "One change of a link's path, as replay shows it (a path link: only up to its step)",
    params: { token: ShareTokenSchema },
    query: ReplayQuerySchema.extend({ thread: z.string().max(100).optional().describe('family links: the path to replay') }),
    response: ReplaySchema,
    errors: SHARED_ERRORS,
  },
  async ({ request, params, query }) => {
    const ctx = await sharedReader(request);
    return replaySharedChange(ctx.deps, { token: params.token, seq: query.seq, thread: query.thread });
  },
);
