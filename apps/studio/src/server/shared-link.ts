// What every route of a share link's reader has in common: the token as a path parameter (any
// malformed one is simply a link that does not work: 404 from the service), the errors they
// answer, and the per-address rate limit (reads need no account, so the address is what is counted).
import { z } from 'zod';
import type { AppErrorCode } from '@trellis/domain';
import { RATE_LIMITS, consumeRateLimit } from '@trellis/services';
import { clientAddress } from './client-address';
import { getContext, type AppContext } from './context';

export const ShareTokenSchema = z.string().max(200).describe('the secret of the link (`/s/{token}`)');

export const SHARED_ERRORS: readonly AppErrorCode[] = ['not_found', 'validation_failed', 'rate_limited'];

/** The studio's context for a reader's request, once the request fits within the address's rate. */
export async function sharedReader(request: Request): Promise<AppContext> {
  const ctx = await getContext();
  await consumeRateLimit(ctx.deps.db, `shared-read:${clientAddress(request.headers)}`, RATE_LIMITS.sharedReadsPerAddress);
  return ctx;
}
