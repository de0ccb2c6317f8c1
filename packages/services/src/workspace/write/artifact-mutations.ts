import { artifacts } from '@trellis/db';
import type { WriteContext } from './context';

/** An artifact belongs to the turn that made it: turn k's agent tags it k; its number is the family's next. */
export async function insertArtifact(
  ctx: WriteContext,
  turnIndex: number,
  input: { kind: string; title: string; content: string },
): Promise<{ id: string; number: number }> {
  const [row] = await ctx.tx
    .insert(artifacts)
    .values({ threadId: ctx.threadId, turnIndex, kind: input.kind, title: input.title, content: input.content })
    .returning({ id: artifacts.id, number: artifacts.number, key: artifacts.key });
  ctx.drafts.push({
    kind: 'artifact',
    key: row!.key,
    op: 'create',
    before: null,
    after: { number: row!.number, turn_index: turnIndex, kind: input.kind, title: input.title, content: input.content },
  });
  return { id: String(row!.id), number: row!.number };
}
