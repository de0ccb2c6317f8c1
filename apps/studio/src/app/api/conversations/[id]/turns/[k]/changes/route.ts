import { TurnIndexParamSchema } from '@trellis/domain';
import { getStepChanges } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

/** What changed at step k of this path (the compare of k−1 and k) and what was discarded there. */
export const GET = authed<{ id: string; k: string }>(async ({ params, ctx, actor }) =>
  getStepChanges(ctx.deps, actor, { threadId: params.id, turn: parseParam(TurnIndexParamSchema, params.k) }),
);
