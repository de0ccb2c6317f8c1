import { buildOpenApiDocumentFromContracts } from '@/server/openapi/document';
import { API_ROUTE_CONTRACTS } from '@/server/openapi/route-modules';
import { OPENAPI_JSON_CONTRACT } from '@/server/openapi/self-contracts';
import { env } from '@/server/env';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(OPENAPI_JSON_CONTRACT, async () =>
  Response.json(buildOpenApiDocumentFromContracts(env().baseUrl, API_ROUTE_CONTRACTS)),
);
