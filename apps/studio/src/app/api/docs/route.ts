import { renderApiReference } from '@/server/openapi/reference-page';
import { buildOpenApiDocument } from '@/server/openapi/document';
import { env } from '@/server/env';
import { open } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = open(
  async () =>
    new Response(renderApiReference(buildOpenApiDocument(env().baseUrl)), {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }),
);
