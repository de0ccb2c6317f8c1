import { z } from 'zod';
import { ConversationListSchema, ConversationPageQuerySchema, ConversationSchema, CreateConversationSchema, IncludeArchivedSchema } from '@trellis/domain';
import { createConversation, listConversations } from '@trellis/services';
import { AUTHED, JSON_BODY, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations',
    tag: 'conversations',
    summary: "The caller's conversations, newest first, with lineage (archived subtrees only with include_archived=true), paged by whole families",
    query: z.object({ include_archived: IncludeArchivedSchema, ...ConversationPageQuerySchema.shape }),
    response: ConversationListSchema,
    errors: [...AUTHED, 'validation_failed'],
  },
  async ({ query: { include_archived, ...page }, ctx, actor }) => listConversations(ctx.deps, actor, { includeArchived: include_archived, ...page }),
);

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations',
    tag: 'conversations',
    summary: 'Create a conversation',
    body: CreateConversationSchema,
    response: ConversationSchema,
    status: 201,
    errors: [...AUTHED, ...JSON_BODY],
  },
  async ({ body, ctx, actor }) => createConversation(ctx.deps, actor, body),
);
