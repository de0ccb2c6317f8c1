import { ConversationExportQuerySchema, PathIdSchema } from '@trellis/domain';
import { exportConversation } from '@trellis/services';
import { attachmentResponse } from '@/server/attachment';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** The document, the displayed path with its steps, every path as a zip, or the authorship report. */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/export',
    access: 'read',
    tag: 'branches',
    summary: 'The document alone (Markdown or Word), the path with its steps (Markdown), every path as a zip, or the authorship report',
    description:
      'Attachments named after the full plain title. `part=document` answers the document as it stands on this path (`&turn=k`: as it stood after step k), as Markdown or (`format=docx`) a Word file; `part=path` (the default) the document first, then "How this document was made"; `scope=family` a zip with one Markdown file per path and the graph as Mermaid; `format=authorship` who wrote the final document (words by person, agent, agent-edited, per section; the agent’s steps and prompts; applied text).',
    params: { id: PathIdSchema },
    query: ConversationExportQuerySchema,
    contentType: 'text/markdown',
    alsoContent: {
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'format=docx: the document as a Word file',
      'application/zip': 'scope=family: every path as Markdown and the graph as Mermaid; format=dataset: datapackage.json and one CSV per table',
    },
    errors: [...OWNED, 'validation_failed', 'conflict', 'unavailable'],
  },
  async ({ params, query, ctx, actor }) => attachmentResponse(await exportConversation(ctx.deps, actor, { threadId: params.id, query })),
);
