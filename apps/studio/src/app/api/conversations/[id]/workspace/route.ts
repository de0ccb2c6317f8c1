import { PatchWorkspaceSchema, PathIdSchema, WorkspaceSchema } from '@trellis/domain';
import { getWorkspace, patchWorkspace } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema };

/** The live workspace: what the next turn's snapshot will capture. */
export const GET = defineRoute(
  { method: 'GET', path: '/api/conversations/{id}/workspace', tag: 'workspace', summary: 'The live workspace', params, response: WorkspaceSchema, errors: OWNED },
  async ({ params, ctx, actor }) => getWorkspace(ctx.deps, actor, { threadId: params.id }),
);

export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/conversations/{id}/workspace',
    tag: 'workspace',
    summary: 'Edit objective and document',
    params,
    body: PatchWorkspaceSchema,
    response: WorkspaceSchema,
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => patchWorkspace(ctx.deps, actor, { threadId: params.id, patch: body }),
);
