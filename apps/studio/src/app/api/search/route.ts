import { SearchQuerySchema } from '@trellis/domain';
import { searchHistory } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

/** Full-text search over the caller's messages, replies, document versions, preferences and todos. */
export const GET = authed(async ({ request, ctx, actor }) =>
  searchHistory(ctx.deps, actor, parseParam(SearchQuerySchema, Object.fromEntries(new URL(request.url).searchParams))),
);
