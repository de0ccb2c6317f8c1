import { TurnIndexParamSchema } from '@trellis/domain';
import { getRestoreView } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

/** Restore view: the workspace after turn k and the transcript up to it. Creates nothing. */
export const GET = authed<{ id: string; k: string }>(async ({ params, ctx, actor }) =>
  getRestoreView(ctx.deps, actor, { threadId: params.id, turn: parseParam(TurnIndexParamSchema, params.k) }),
);
