import { DOCUMENT_TOO_LARGE, LiveWorkspaceSchema, MAX_DOCUMENT_BODY_BYTES, PatchWorkspaceSchema, PathIdSchema } from '@trellis/domain';
import { getWorkspace, patchWorkspace } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute } from '@/server/define-route';
import { parseDocumentBody } from '@/server/parse-document-body';

export const dynamic = 'force-dynamic';

const params = { id: PathIdSchema };

/** The live workspace: what the next turn's snapshot will capture. */
export const GET = defineRoute(
  { method: 'GET', path: '/api/conversations/{id}/workspace', access: 'read', tag: 'workspace', summary: 'The live workspace', params, response: LiveWorkspaceSchema, errors: OWNED },
  async ({ params, ctx, actor }) => getWorkspace(ctx.deps, actor, { threadId: params.id }),
);

export const PATCH = defineRoute(
  {
    method: 'PATCH',
    path: '/api/conversations/{id}/workspace',
    access: 'edit',
    tag: 'workspace',
    summary: 'Edit objective and document (a document save on an older base_version is merged, or 409 conflict)',
    params,
    body: PatchWorkspaceSchema,
    // A body carries a whole document: the document limit decides the body limit, not the other way round.
    maxBodyBytes: MAX_DOCUMENT_BODY_BYTES,
    tooLargeMessage: DOCUMENT_TOO_LARGE,
    parseBody: parseDocumentBody,
    response: LiveWorkspaceSchema,
    errors: [...OWNED, ...JSON_BODY, 'conflict'],
  },
  async ({ params, body, ctx, actor }) => patchWorkspace(ctx.deps, actor, { threadId: params.id, patch: body }),
);
