import { renderApiReference } from '@/server/openapi/reference-page';
import { buildOpenApiDocument } from '@/server/openapi/document';
import { API_ROUTE_MODULES } from '@/server/openapi/route-modules';
import { env } from '@/server/env';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(
  { method: 'GET', path: '/api/docs', tag: 'system', summary: 'Browsable API reference', contentType: 'text/html', errors: [] },
  async () =>
    new Response(renderApiReference(buildOpenApiDocument(env().baseUrl, API_ROUTE_MODULES)), {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }),
);
