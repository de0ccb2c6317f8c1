import { BranchCreatedSchema, CreateBranchSchema, PathIdSchema } from '@trellis/domain';
import { createBranch } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/branch',
    access: 'edit',
    tag: 'branches',
    summary: 'Create a branch at from_turn (optionally from an edited preview)',
    params: { id: PathIdSchema },
    body: CreateBranchSchema,
    response: BranchCreatedSchema,
    status: 201,
    errors: [...OWNED, ...JSON_BODY, 'conflict', 'branching_disabled', 'unavailable', 'upstream_failed'],
  },
  async ({ params, body, ctx, actor }) => createBranch(ctx.deps, actor, { ...body, threadId: params.id }),
);
