import { AuthorshipQuerySchema, AuthorshipSchema, PathIdSchema } from '@trellis/domain';
import { getAuthorship } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Who wrote the document's text: spans by author over the live document, or (`turn=k`) the document after step k. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/authorship',
    access: 'read',
    tag: 'workspace',
    summary: 'The document as spans by author (person, agent, agent_edited, unknown) with the step and change each came from; turn=k: after step k',
    params: { id: PathIdSchema },
    query: AuthorshipQuerySchema,
    response: AuthorshipSchema,
    errors: [...OWNED, 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) => getAuthorship(ctx.deps, actor, { threadId: params.id, turn: query.turn, changesAfter: query.changes_after }),
);
