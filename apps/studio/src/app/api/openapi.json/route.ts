import { buildOpenApiDocument } from '@/server/openapi/document';
import { env } from '@/server/env';
import { open } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = open(async () => buildOpenApiDocument(env().baseUrl));
