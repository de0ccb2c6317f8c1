import {
  DocumentUpdatesQuerySchema,
  DocumentUpdatesSchema,
  PathIdSchema,
  PushDocumentUpdatesSchema,
} from '@trellis/domain';
import { pullDocumentUpdates, pushDocumentUpdates } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';
import { DOCUMENT_UPDATES } from '@/server/openapi/descriptions';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema };

export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/document/updates',
    access: 'read',
    tag: 'workspace',
    summary: 'The document’s updates after a version (a live editor catching up)',
    description: DOCUMENT_UPDATES,
    params,
    query: DocumentUpdatesQuerySchema,
    response: DocumentUpdatesSchema,
    errors: [...OWNED, 'validation_failed', 'conflict'],
  },
  async ({ params, query, ctx, actor }) =>
    pullDocumentUpdates(ctx.deps, actor, { threadId: params.id, since: query.since }),
);

export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/document/updates',
    access: 'edit',
    tag: 'workspace',
    summary: 'Send a live editor’s updates (ordered by version, rebased when made on an older one)',
    description: DOCUMENT_UPDATES,
    params,
    body: PushDocumentUpdatesSchema,
    response: DocumentUpdatesSchema,
    errors: [...OWNED, ...JSON_BODY, 'conflict'],
  },
  async ({ params, body, ctx, actor }) =>
    pushDocumentUpdates(ctx.deps, actor, { threadId: params.id, push: body }),
);
