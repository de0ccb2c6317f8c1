import { MessageListQuerySchema, MessageListSchema, SharedViewQuerySchema } from '@trellis/domain';
import { listSharedMessages } from '@trellis/services';
import { SHARED_ERRORS, ShareTokenSchema, sharedReader } from '@/server/shared-link';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(
  {
    method: 'GET',
    path: '/api/shared/{token}/messages',
    tag: 'sharing',
    summary: "Older steps of a link's transcript, a page of steps at a time (newest page first)",
    params: { token: ShareTokenSchema },
    query: SharedViewQuerySchema.extend(MessageListQuerySchema.shape),
    response: MessageListSchema,
    errors: SHARED_ERRORS,
  },
  async ({ request, params, query }) => {
    const ctx = await sharedReader(request);
    return listSharedMessages(ctx.deps, { ...query, token: params.token });
  },
);
