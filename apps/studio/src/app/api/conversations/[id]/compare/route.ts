import { z } from 'zod';
import { CompareFormatSchema, CompareSchema, NodeIdParamSchema, PathIdSchema, comparisonToUnifiedDiff } from '@trellis/domain';
import { compareSteps } from '@trellis/services';
import { OWNED, defineRoute } from '@/server/define-route';

export const dynamic = 'force-dynamic';

const UNIFIED_DIFF = 'text/x-diff';

/** The workspace after step `a` against the workspace after step `b` (JSON, or a unified diff with `format=diff`). */
export const GET = defineRoute(
  {
    method: 'GET',
    path: '/api/conversations/{id}/compare',
    access: 'read',
    tag: 'branches',
    summary: 'Compare the workspace after two steps of the family (a, b: "{thread_id}:{turn}"; format=json|diff)',
    params: { id: PathIdSchema },
    query: z.object({ a: NodeIdParamSchema, b: NodeIdParamSchema, format: CompareFormatSchema }),
    response: CompareSchema,
    alsoContent: {
      [UNIFIED_DIFF]: 'format=diff: a unified diff of the document (a/{label of a}, b/{label of b}), then one line per changed item ("+", "-" or "~", its kind and text)',
    },
    errors: [...OWNED, 'conflict', 'validation_failed'],
  },
  async ({ params, query, ctx, actor }) => {
    const comparison = await compareSteps(ctx.deps, actor, { threadId: params.id, a: query.a, b: query.b });
    if (query.format === 'json') return comparison;
    return new Response(comparisonToUnifiedDiff(comparison), { headers: { 'content-type': `${UNIFIED_DIFF}; charset=utf-8` } });
  },
);
