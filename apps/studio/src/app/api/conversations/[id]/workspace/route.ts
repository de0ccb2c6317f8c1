import { PatchWorkspaceSchema } from '@trellis/domain';
import { getWorkspace, patchWorkspace } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

/** The live workspace: what the next turn's snapshot will capture. */
export const GET = authed<{ id: string }>(async ({ params, ctx, actor }) =>
  getWorkspace(ctx.deps, actor, { threadId: params.id }),
);

export const PATCH = authed<{ id: string }>(async ({ request, params, ctx, actor }) =>
  patchWorkspace(ctx.deps, actor, { threadId: params.id, patch: await readJson(request, PatchWorkspaceSchema) }),
);
