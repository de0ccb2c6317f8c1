import { CreateConversationSchema } from '@trellis/domain';
import { createConversation, listConversations } from '@trellis/services';
import { authed, readJson } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = authed(async ({ ctx, actor }) => listConversations(ctx.deps, actor));

export const POST = authed(
  async ({ request, ctx, actor }) => createConversation(ctx.deps, actor, await readJson(request, CreateConversationSchema)),
  { status: 201 },
);
