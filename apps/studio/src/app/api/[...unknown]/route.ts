import { z } from 'zod';
import { AppError } from '@trellis/domain';
import { definePublicRoute, type HttpMethod } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** Any `/api/*` path no other route claims: a JSON 404, never Next's HTML page. */
const unknown = (method: HttpMethod) =>
  definePublicRoute(
    { method, path: '/api/{unknown}', isFallback: true, tag: 'system', summary: 'Any other API path: a JSON 404', params: { unknown: z.array(z.string()) }, errors: ['not_found'] },
    async ({ request }) => {
      throw AppError.notFound(`${request.method} ${new URL(request.url).pathname} was`);
    },
  );

export const GET = unknown('GET');
export const POST = unknown('POST');
export const PUT = unknown('PUT');
export const PATCH = unknown('PATCH');
export const DELETE = unknown('DELETE');
