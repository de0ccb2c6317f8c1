import { EditTurnSchema, TurnIndexParamSchema } from '@trellis/domain';
import { editTurn } from '@trellis/services';
import { authed, parseParam, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

/** Creates the edited sibling of step k (a branch at k−1); the client then sends the text there. */
export const POST = authed<{ id: string; k: string }>(
  async ({ request, params, ctx, actor }) => {
    const { content } = await readJson(request, EditTurnSchema);
    return editTurn(ctx.deps, actor, { threadId: params.id, turn: parseParam(TurnIndexParamSchema, params.k), content });
  },
  { status: 201 },
);
