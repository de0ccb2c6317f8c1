import { CreateBranchSchema } from '@trellis/domain';
import { createBranch } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const POST = authed<{ id: string }>(
  async ({ request, params, ctx, actor }) => createBranch(ctx.deps, actor, { ...(await readJson(request, CreateBranchSchema)), threadId: params.id }),
  { status: 201 },
);
