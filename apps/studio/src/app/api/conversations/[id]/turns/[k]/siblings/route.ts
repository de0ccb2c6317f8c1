import { TurnIndexParamSchema } from '@trellis/domain';
import { listSiblings } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = authed<{ id: string; k: string }>(async ({ params, ctx, actor }) =>
  listSiblings(ctx.deps, actor, { threadId: params.id, turn: parseParam(TurnIndexParamSchema, params.k) }),
);
