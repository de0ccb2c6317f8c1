import { checkHealth } from '@trellis/services';
import { getContext } from '@/server/context';
import { open } from '@/server/http';

export const dynamic = 'force-dynamic';

export const GET = open(async () => {
  const { deps } = await getContext();
  const health = await checkHealth(deps);
  return Response.json(health, { status: health.ok ? 200 : 503 });
});
