import { z } from 'zod';
import { attachmentDisposition } from '@trellis/domain';
import { exportDataset } from '@trellis/services';
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
    query: z.object({
      format: z.literal('dataset'),
      pseudonymize: z
        .enum(['true', 'false'])
        .optional()
        .transform((value) => value === 'true'),
    }),
    contentType: 'application/zip',
    errors: [...AUTHED, 'validation_failed'],
  },
  async ({ query, ctx, actor }) => {
    const dataset = await exportDataset(ctx.deps, actor, { pseudonymize: query.pseudonymize });
    return new Response(dataset.stream, {
      headers: { 'content-type': dataset.contentType, 'content-disposition': attachmentDisposition(dataset.filename) },
    });
  },
);
