import { handleAuthRequest } from '@trellis/services';
import { clientAddress } from '@/server/client-address';
import { getContext } from '@/server/context';
import { errorResponse } from '@/server/http';

export const dynamic = 'force-dynamic';

/** better-auth's routes, rate limited on the resolved client address. */
async function handle(request: Request): Promise<Response> {
  try {
    const { auth, deps } = await getContext();
    return await handleAuthRequest({ db: deps.db, auth }, request, clientAddress(request.headers));
  } catch (error) {
    return errorResponse(error);
  }
}

export const GET = handle;
export const POST = handle;
