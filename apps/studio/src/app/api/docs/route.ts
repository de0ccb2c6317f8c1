import { renderApiReference } from '@/server/openapi/reference-page';
import { buildOpenApiDocumentFromContracts } from '@/server/openapi/document';
import { API_ROUTE_CONTRACTS } from '@/server/openapi/route-modules';
import { DOCS_CONTRACT } from '@/server/openapi/self-contracts';
import { env } from '@/server/env';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(
  DOCS_CONTRACT,
  async () =>
    new Response(renderApiReference(buildOpenApiDocumentFromContracts(env().baseUrl, API_ROUTE_CONTRACTS)), {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }),
);
