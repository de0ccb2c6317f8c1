import { z } from 'zod';
import { handleAuthRequest } from '@trellis/services';
import { toAppErrorBody } from '@/server/auth-errors';
import { clientAddress } from '@/server/client-address';
import { getContext } from '@/server/context';
import { definePublicRoute, type HttpMethod } from '@/server/define-route';

export const dynamic = 'force-dynamic';

/** better-auth's routes, rate limited on the resolved client address; its errors in the API's error shape. */
const auth = (method: HttpMethod, summary: string, description?: string) =>
  definePublicRoute(
    {
      method,
      path: '/api/auth/{all}',
      tag: 'auth',
      summary,
      ...(description ? { description } : {}),
      params: { all: z.array(z.string()) },
      errors: ['bad_request', 'unauthenticated', 'forbidden', 'not_found', 'payload_too_large', 'unsupported_media_type', 'validation_failed', 'rate_limited'],
    },
    async ({ request }) => {
      const { auth, deps } = await getContext();
      return toAppErrorBody(await handleAuthRequest({ db: deps.db, auth, family: deps.family }, request, clientAddress(request.headers)));
    },
  );

export const GET = auth('GET', 'better-auth routes (session, sign-out …)');
export const POST = auth(
  'POST',
  'better-auth routes: sign-up/email {name, email, password}, sign-in/email {email, password}, sign-out',
  'JSON object bodies only (400 otherwise, 415 for other media types). Sign-in is rate limited per client address and per (address, email), sign-up per address (429). A password change ends every other session and revokes every API token.',
);
