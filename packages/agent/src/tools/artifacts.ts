import { z } from 'zod';
import { defineTool, MAX_DOCUMENT_CHARS, MAX_TITLE_CHARS, quote } from './define';

export const createArtifactTool = defineTool({
  name: 'create_artifact',
  description:
    'Save a standalone artifact of this turn (an outline, a draft variant, a table, a snippet) without touching the document.',
  schema: z.object({
    kind: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .default('note')
      .describe('A one-word kind, e.g. "note", "outline", "draft", "table", "code"'),
    title: z.string().trim().min(1).max(MAX_TITLE_CHARS).describe('A short title'),
    content: z.string().max(MAX_DOCUMENT_CHARS).describe('The artifact body, usually markdown'),
  }),
  run: async (workspace, { kind, title, content }) => {
    const { number } = await workspace.createArtifact({ kind, title, content });
    // Named by its title and its number within the family, never by a row id.
    return `Artifact ${number} created: ${quote(title)} (${kind}).`;
  },
});
