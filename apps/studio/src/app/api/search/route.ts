import { SearchQuerySchema, SearchResultSchema } from '@trellis/domain';
import { searchHistory } from '@trellis/services';
import { AUTHED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Full-text search over the caller's messages, replies, document versions, preferences and todos. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/search',
    tag: 'conversations',
    summary: "Full-text search over the caller's messages, replies, document versions, preferences and todos, best first",
    query: SearchQuerySchema,
    response: SearchResultSchema,
    errors: [...AUTHED, 'not_found', 'validation_failed'],
  },
  async ({ query, ctx, actor }) => searchHistory(ctx.deps, actor, query),
);
