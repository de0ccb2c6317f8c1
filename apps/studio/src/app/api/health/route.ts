import { HealthSchema } from '@trellis/domain';
import { checkHealth } from '@trellis/services';
import { getContext } from '@/server/context';
import { definePublicRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

export const GET = definePublicRoute(
  { method: 'GET', path: '/api/health', tag: 'system', summary: 'Database and checkpointer health', response: HealthSchema, errors: ['unavailable'] },
  async () => {
    const { deps } = await getContext();
    const health = await checkHealth(deps);
    return Response.json(health, { status: health.ok ? 200 : 503 });
  },
);
