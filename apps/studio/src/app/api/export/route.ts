import { DatasetExportQuerySchema } from '@trellis/domain';
import { exportDataset } from '@trellis/services';
import { attachmentResponse } from '@/server/attachment';
import { AUTHED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Every family of the caller as one research dataset (a Frictionless Data Package, streamed). */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/export',
    tag: 'branches',
    summary: 'All of your families as a research dataset: a zip with datapackage.json and one CSV per table',
    description:
      'The same package as `GET /api/conversations/{id}/export?format=dataset`, over every family you own (docs/dataset.md describes each table). `pseudonymize=true` replaces user ids and emails with salted hashes; message text is kept verbatim.',
    query: DatasetExportQuerySchema,
    contentType: 'application/zip',
    errors: [...AUTHED, 'validation_failed'],
  },
  async ({ query, ctx, actor }) => attachmentResponse(await exportDataset(ctx.deps, actor, { pseudonymize: query.pseudonymize })),
);
