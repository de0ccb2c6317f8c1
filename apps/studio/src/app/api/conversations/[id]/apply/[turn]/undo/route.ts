import { PathIdSchema, TurnIndexParamSchema, UndoApplyResultSchema } from '@trellis/domain';
import { undoApply } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Puts every item the apply at step {turn} wrote back as it was before it, as one new step. */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/apply/{turn}/undo',
    access: 'edit',
    tag: 'branches',
    summary: 'Undo the apply at step {turn}: a new step that puts every applied item back as it was before it',
    description:
      'The apply stays in history; the undo step says which apply it reverses, with an edge from it. 404 when step {turn} is not an apply; ' +
      'A three-way revert: changes made since elsewhere (another section, other items) stay. ' +
      '409 conflict when a later change touched an applied item or the applied words of the document (the error names what changed, when and by whom) or the apply was already undone; ' +
      '409 turn_in_progress while a turn runs. Artifacts an apply brought are kept (they are never deleted).',
    params: { id: PathIdSchema, turn: TurnIndexParamSchema },
    response: UndoApplyResultSchema,
    status: 201,
    errors: [...OWNED, 'unsupported_media_type', 'validation_failed', 'conflict', 'turn_in_progress', 'unavailable'],
  },
  async ({ params, ctx, actor }) => undoApply(ctx.deps, actor, { threadId: params.id, turn: params.turn }),
);
