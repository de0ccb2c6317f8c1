// The OpenAPI 3.1 document, generated from the same zod contracts the handlers
// parse with (STYLE §3). `routes.ts` lists every route; an e2e test checks that
// every route file in app/api is described here.
import { z } from 'zod';
import { ErrorBodySchema } from '@trellis/domain';
import { API_ROUTES, type ApiRouteSpec } from './routes';

type JsonSchema = Record<string, unknown>;

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
}

function operation(route: ApiRouteSpec) {
  const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const query = route.query
    ? Object.entries((schemaOf(route.query, 'input').properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
        name,
        in: 'query',
        required: false,
        schema,
      }))
    : [];
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: route.response
      ? { description: 'OK', content: { [route.contentType ?? 'application/json']: { schema: schemaOf(route.response, 'output') } } }
      : { description: route.contentType ? `Body: ${route.contentType}` : 'No content' },
  };
  for (const status of route.errors ?? []) {
    responses[String(status)] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  }
  return {
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.isPublic ? { security: [] } : {}),
    parameters: [...params, ...query],
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body, 'input') } } } }
      : {}),
    responses,
  };
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in and no valid API token',
  403: 'Not yours, or a cross-site request',
  404: 'Not found (or soft-deleted)',
  409: 'Conflict (a turn is running, or the state cannot be reconstructed)',
  413: 'Payload too large',
  415: 'Not JSON',
  422: 'Validation failed, with field details',
  429: 'Rate limited',
  502: 'A downstream step failed; nothing was left behind',
};

export function buildOpenApiDocument(baseUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of API_ROUTES) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Trellis API',
      version: '0.1.0',
      description:
        'Branching studio for documents co-written with an AI agent. Authenticate with a session cookie (browser) or `Authorization: Bearer <token>` (create one with POST /api/tokens). Errors are `{error: {code, message, details?}}`.',
    },
    servers: [{ url: baseUrl }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token (trl_…)' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
      },
      schemas: { Error: schemaOf(ErrorBodySchema, 'output') },
    },
    security: [{ bearer: [] }, { cookie: [] }],
    paths,
  };
}
