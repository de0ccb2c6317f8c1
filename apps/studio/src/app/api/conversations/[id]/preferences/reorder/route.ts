import { z } from 'zod';
import { PathIdSchema, LivePreferenceSchema, ReorderSchema } from '@trellis/domain';
import { reorderPreferences } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Body: every preference id in the new order (422 when it is not exactly the current set). */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/preferences/reorder',
    access: 'edit',
    tag: 'workspace',
    summary: 'Reorder preferences (all ids, new order)',
    params: { id: PathIdSchema },
    body: ReorderSchema,
    response: z.object({ preferences: z.array(LivePreferenceSchema) }),
    errors: [...OWNED, ...JSON_BODY],
  },
  async ({ params, body, ctx, actor }) => reorderPreferences(ctx.deps, actor, { threadId: params.id, ...body }),
);
