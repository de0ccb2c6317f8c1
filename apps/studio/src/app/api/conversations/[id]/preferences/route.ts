import { CreatePreferenceSchema, PathIdSchema, LivePreferenceSchema } from '@trellis/domain';
import { createPreference } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/preferences',
    access: 'edit',
    tag: 'workspace',
    summary: 'Add a preference',
    params: { id: PathIdSchema },
    body: CreatePreferenceSchema,
    response: LivePreferenceSchema,
    status: 201,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => createPreference(ctx.deps, actor, { threadId: params.id, preference: body }),
);
