// Objective and document edits shared by the REST services and the agent's
// workspace port. The live document is one row per thread; writes upsert it, so
// a thread created without one (an older branch) still works.
import { eq, sql } from 'drizzle-orm';
import { replaceMarkdownSection } from '@trellis/agent';
import { conversations, documents, type DbOrTx } from '@trellis/db';

export async function setObjective(tx: DbOrTx, threadId: string, objective: string | null): Promise<void> {
  await tx.update(conversations).set({ objective }).where(eq(conversations.threadId, threadId));
}

/** Sets the title and/or the body; an omitted field keeps its value. */
export async function writeDocument(
  tx: DbOrTx,
  threadId: string,
  input: { title?: string | undefined; content?: string | undefined },
): Promise<void> {
  if (input.title === undefined && input.content === undefined) return;
  await tx
    .insert(documents)
    .values({ threadId, title: input.title ?? '', content: input.content ?? '' })
    .onConflictDoUpdate({
      target: documents.threadId,
      set: {
        ...(input.title === undefined ? {} : { title: input.title }),
        ...(input.content === undefined ? {} : { content: input.content }),
        updatedAt: sql`now()`,
      },
    });
}

/** Appends `text` as a new paragraph: the body without its trailing newlines, a blank line, `text` (the port's rule). */
export async function appendToDocument(tx: DbOrTx, threadId: string, text: string): Promise<void> {
  await tx
    .insert(documents)
    .values({ threadId, content: text })
    .onConflictDoUpdate({
      target: documents.threadId,
      set: {
        content: sql`case when rtrim(${documents.content}, E'\n') = '' then excluded.content
          else rtrim(${documents.content}, E'\n') || E'\n\n' || excluded.content end`,
        updatedAt: sql`now()`,
      },
    });
}

/** Replaces the body under a markdown heading, or appends the section (the agent package's rule). */
export async function replaceDocumentSection(
  tx: DbOrTx,
  threadId: string,
  input: { heading: string; content: string },
): Promise<void> {
  const [row] = await tx
    .select({ content: documents.content })
    .from(documents)
    .where(eq(documents.threadId, threadId))
    .for('update');
  const next = replaceMarkdownSection(row?.content ?? '', input.heading, input.content);
  await writeDocument(tx, threadId, { content: next });
}
