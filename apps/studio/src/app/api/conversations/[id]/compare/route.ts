import { CompareFormatSchema, comparisonToUnifiedDiff, NodeIdParamSchema } from '@trellis/domain';
import { compareSteps } from '@trellis/services';
import { authed, parseParam } from '@/server/http';

export const dynamic = 'force-dynamic';

/** The workspace after step `a` against the workspace after step `b` (JSON, or a unified diff with `format=diff`). */
export const GET = authed<{ id: string }>(async ({ request, params, ctx, actor }) => {
  const query = new URL(request.url).searchParams;
  const a = parseParam(NodeIdParamSchema, query.get('a') ?? undefined);
  const b = parseParam(NodeIdParamSchema, query.get('b') ?? undefined);
  const format = parseParam(CompareFormatSchema, query.get('format') ?? undefined);
  const comparison = await compareSteps(ctx.deps, actor, { threadId: params.id, a, b });
  if (format === 'json') return comparison;
  return new Response(comparisonToUnifiedDiff(comparison), { headers: { 'content-type': 'text/x-diff; charset=utf-8' } });
});
