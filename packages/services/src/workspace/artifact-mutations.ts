import { artifacts, type DbOrTx } from '@trellis/db';

/** An artifact belongs to the turn that made it: turn k's agent tags it k; its number is the family's next. */
export async function insertArtifact(
  tx: DbOrTx,
  threadId: string,
  turnIndex: number,
  input: { kind: string; title: string; content: string },
): Promise<{ id: string; number: number }> {
  const [row] = await tx
    .insert(artifacts)
    .values({ threadId, turnIndex, kind: input.kind, title: input.title, content: input.content })
    .returning({ id: artifacts.id, number: artifacts.number });
  return { id: String(row!.id), number: row!.number };
}
