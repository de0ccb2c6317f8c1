import { PathIdSchema, LivePreferenceSchema, UpdatePreferenceSchema } from '@trellis/domain';
import { deletePreference, updatePreference } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema, pid: PathIdSchema };

export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/conversations/{id}/preferences/{pid}',
    access: 'edit',
    tag: 'workspace',
    summary: 'Edit or (un)lock a preference',
    params,
    body: UpdatePreferenceSchema,
    response: LivePreferenceSchema,
    errors: [...OWNED, ...JSON_BODY, 'conflict'],
  },
  async ({ params, body, ctx, actor }) =>
    updatePreference(ctx.deps, actor, { threadId: params.id, preferenceId: params.pid, patch: body }),
);

export const DELETE = defineRoute(
  {
    method: 'DELETE',
    path: '/api/conversations/{id}/preferences/{pid}',
    access: 'edit',
    tag: 'workspace',
    summary: 'Remove a preference',
    params,
    status: 204,
    errors: [...OWNED, 'conflict'],
  },
  async ({ params, ctx, actor }) => {
    await deletePreference(ctx.deps, actor, { threadId: params.id, preferenceId: params.pid });
    return new Response(null, { status: 204 });
  },
);
