import { CreateConversationSchema, IncludeArchivedSchema } from '@trellis/domain';
import { createConversation, listConversations } from '@trellis/services';
import { authed, parseParam, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = authed(async ({ request, ctx, actor }) => {
  const includeArchived = parseParam(IncludeArchivedSchema, new URL(request.url).searchParams.get('include_archived') ?? undefined);
  return listConversations(ctx.deps, actor, { includeArchived });
});

export const POST = authed(
  async ({ request, ctx, actor }) => createConversation(ctx.deps, actor, await readJson(request, CreateConversationSchema)),
  { status: 201 },
);
