import { ConversationPageQuerySchema, CreateConversationSchema, IncludeArchivedSchema } from '@trellis/domain';
import { createConversation, listConversations } from '@trellis/services';
import { authed, parseParam, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = authed(async ({ request, ctx, actor }) => {
  const params = new URL(request.url).searchParams;
  const includeArchived = parseParam(IncludeArchivedSchema, params.get('include_archived') ?? undefined);
  const page = parseParam(ConversationPageQuerySchema, {
    limit: params.get('limit') ?? undefined,
    cursor: params.get('cursor') ?? undefined,
  });
  return listConversations(ctx.deps, actor, { includeArchived, ...page });
});

export const POST = authed(
  async ({ request, ctx, actor }) => createConversation(ctx.deps, actor, await readJson(request, CreateConversationSchema)),
  { status: 201 },
);
