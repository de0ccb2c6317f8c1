import { buildOpenApiDocument } from '@/server/openapi/document';
import { API_ROUTE_MODULES } from '@/server/openapi/route-modules';
import { env } from '@/server/env';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(
  { method: 'GET', path: '/api/openapi.json', tag: 'system', summary: 'This document', contentType: 'application/json', errors: [] },
  async () => Response.json(buildOpenApiDocument(env().baseUrl, API_ROUTE_MODULES)),
);
