import { toNextJsHandler } from 'better-auth/next-js';
import { consumeRateLimit, RATE_LIMITS } from '@trellis/services';
import { getContext } from '@/server/context';
import { errorResponse } from '@/server/http';

export const dynamic = 'force-dynamic';

const LIMITED = [
  { suffix: '/sign-in/email', rule: RATE_LIMITS.signIn, name: 'sign-in' },
  { suffix: '/sign-up/email', rule: RATE_LIMITS.signUp, name: 'sign-up' },
] as const;

export async function GET(request: Request): Promise<Response> {
  const { auth } = await getContext();
  return toNextJsHandler(auth).GET(request);
}

/** better-auth's routes, with sign-in and sign-up behind the Postgres rate limiter. */
export async function POST(request: Request): Promise<Response> {
  try {
    const { auth, deps } = await getContext();
    const path = new URL(request.url).pathname;
    const limited = LIMITED.find((l) => path.endsWith(l.suffix));
    if (limited) {
      const body = (await request.clone().json().catch(() => ({}))) as { email?: unknown };
      const email = typeof body.email === 'string' ? body.email.toLowerCase() : '';
      const ip = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() ?? 'direct';
      await consumeRateLimit(deps.db, `${limited.name}:${ip}:${email}`, limited.rule);
    }
    return await toNextJsHandler(auth).POST(request);
  } catch (error) {
    return errorResponse(error);
  }
}
