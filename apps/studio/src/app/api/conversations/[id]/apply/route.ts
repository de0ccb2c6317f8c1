import { ApplyDryRunSchema, ApplyRequestSchema, ApplyResultSchema, PathIdSchema } from '@trellis/domain';
import { EVENT_STREAM_HEADERS, applyItems, summarizePath, toEventStream } from '@trellis/services';
import { JSON_BODY, OWNED, defineRoute, withStatus } from '@/server/define-route';
import { TURN_EVENTS } from '@/server/openapi/descriptions';

export const dynamic = 'force-dynamic';

/**
 * Chosen items of one step of the family land on this path as one new turn (201), or, with dry_run,
 * what they would change (200). A `summary` item, alone, is an agent turn: it answers that turn's
 * event stream, like sending a message.
 */
export const POST = defineRoute(
  {
    method: 'POST',
    path: '/api/conversations/{id}/apply',
    access: 'edit',
    tag: 'branches',
    summary: 'Apply items of a step of the family (source: "{thread_id}:{turn}") onto this path as one new turn',
    description:
      'Items keep their keys. 409 turn_in_progress while a turn runs here, 409 conflict when an item would change a preference locked here; ' +
      '422 when an item is not in the source or the source is outside the family. dry_run answers 200 with the compare of now against after. ' +
      `A summary item (on its own) runs one agent turn and answers its events as text/event-stream instead (the reply is filed as the artifact "Summary of path …"): ${TURN_EVENTS}`,
    params: { id: PathIdSchema },
    body: ApplyRequestSchema,
    response: ApplyResultSchema,
    status: 201,
    alsoResponds: { 200: { description: 'dry_run: what the apply would change; nothing written', schema: ApplyDryRunSchema } },
    errors: [...OWNED, ...JSON_BODY, 'conflict', 'turn_in_progress', 'unavailable'],
  },
  async ({ params, body, ctx, actor }) => {
    const input = { threadId: params.id, source: body.source, items: body.items, note: body.note };
    if (body.dry_run) return withStatus(200, await applyItems(ctx.deps, actor, { ...input, dryRun: true }));
    // The contract keeps a summary alone, so its presence makes the request a summary turn.
    if (body.items[0]?.kind === 'summary') {
      const turn = await summarizePath(ctx.deps, actor, { threadId: params.id, source: body.source, note: body.note });
      return new Response(toEventStream(turn), { status: 201, headers: EVENT_STREAM_HEADERS });
    }
    return applyItems(ctx.deps, actor, input);
  },
);
