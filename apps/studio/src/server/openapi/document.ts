// The OpenAPI 3.1 document, generated from the contracts the route handlers
// carry (`defineRoute`) and nothing else: the schemas they parse with, the
// parameters they declare, the error codes they can answer.
import { z } from 'zod';
import { ErrorBodySchema, type AppErrorCode } from '@trellis/domain';
import { contractsOf, type RouteContract } from '../define-route';
import { STATUS_BY_CODE } from '../http';

type JsonSchema = Record<string, unknown>;

export function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request',
  401: 'Not signed in and no valid API token',
  403: 'Not yours, or a cross-site request',
  404: 'Not found (or soft-deleted, or a malformed id)',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Not JSON',
  422: 'Validation failed, with field details',
  429: 'Rate limited',
  500: 'Something went wrong on our side',
  502: 'A downstream step failed; nothing was left behind',
  503: 'Unavailable',
};

/** The error responses of a route: one per status, naming the codes behind it. */
export function errorResponses(codes: readonly AppErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, AppErrorCode[]>();
  for (const code of codes) byStatus.set(STATUS_BY_CODE[code], [...(byStatus.get(STATUS_BY_CODE[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: `${ERROR_TEXT[status] ?? 'Error'} (code: ${list.join(', ')})`,
          'x-error-codes': list,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
  );
}

function operation(route: RouteContract) {
  const params = Object.entries(route.params ?? {}).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: schemaOf(schema, 'input'),
  }));
  const query = route.query
    ? Object.entries((schemaOf(route.query as z.ZodType, 'input').properties ?? {}) as Record<string, JsonSchema>).map(([name, schema]) => ({
        name,
        in: 'query',
        required: false,
        schema,
      }))
    : [];
  const alsoContent = Object.fromEntries(
    Object.entries(route.alsoContent ?? {}).map(([media, description]) => [media, { schema: { type: 'string', description } }]),
  );
  const responses: Record<string, unknown> = {
    [String(route.status ?? 200)]: route.response
      ? {
          description: 'OK',
          content: { [route.contentType ?? 'application/json']: { schema: schemaOf(route.response, 'output') }, ...alsoContent },
        }
      : { description: route.contentType ? `Body: ${route.contentType}` : 'No content' },
    ...Object.fromEntries(
      Object.entries(route.alsoResponds ?? {}).map(([status, { description, schema }]) => [
        status,
        { description, content: { 'application/json': { schema: schemaOf(schema, 'output') } } },
      ]),
    ),
    ...errorResponses(route.errors),
  };
  return {
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    ...(route.isPublic ? { security: [] } : {}),
    // The least role in the family this operation needs (owner ⊇ editor ⊇ commenter ⊇ viewer).
    ...(route.access ? { 'x-trellis-access': route.access } : {}),
    parameters: [...params, ...query],
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body as z.ZodType, 'input') } } } }
      : {}),
    ...(route.rawBody
      ? {
          requestBody: {
            required: true,
            description: route.rawBody.description,
            content: { [route.rawBody.mediaType]: { schema: { type: 'string', format: 'binary' } } },
          },
        }
      : {}),
    responses,
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocumentFromContracts>;

export function buildOpenApiDocument(baseUrl: string, modules: Record<string, unknown>[]) {
  return buildOpenApiDocumentFromContracts(baseUrl, modules.flatMap(contractsOf));
}

export function buildOpenApiDocumentFromContracts(baseUrl: string, contracts: RouteContract[]) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const route of contracts) {
    if (route.isFallback) continue;
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Trellis API',
      version: '0.1.0',
      description:
        'Branching studio for documents co-written with an AI agent. Authenticate with a session cookie (browser) or `Authorization: Bearer <token>` (create one with POST /api/tokens). Errors are `{error: {code, message, details?}}`; clients branch on `code`.',
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
