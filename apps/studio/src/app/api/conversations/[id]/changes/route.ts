import { ChangesPageSchema, ChangesQuerySchema, PathIdSchema } from '@trellis/domain';
import { listChanges } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** The change log of a path, oldest first, with what it inherited from its ancestors up to its branch point. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/changes',
    access: 'read',
    tag: 'workspace',
    summary: 'Every workspace change of the path (paged by a path-wide seq)',
    params: { id: PathIdSchema },
    query: ChangesQuerySchema,
    response: ChangesPageSchema,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) =>
    listChanges(ctx.deps, actor, { threadId: params.id, afterSeq: query.after_seq, limit: query.limit }),
);
