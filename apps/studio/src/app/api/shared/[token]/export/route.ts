import { SharedViewQuerySchema } from '@trellis/domain';
import { exportSharedDocument } from '@trellis/services';
import { attachmentResponse } from '@/server/attachment';
import { SHARED_ERRORS, ShareTokenSchema, sharedReader } from '@/server/shared-link';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(
  {
    method: 'GET',
    path: '/api/shared/{token}/export',
    tag: 'sharing',
    summary: "The document of the link's shown step, as Markdown",
    params: { token: ShareTokenSchema },
    query: SharedViewQuerySchema,
    contentType: 'text/markdown',
    errors: SHARED_ERRORS,
  },
  async ({ request, params, query }) => {
    const ctx = await sharedReader(request);
    return attachmentResponse(await exportSharedDocument(ctx.deps, { ...query, token: params.token }));
  },
);
