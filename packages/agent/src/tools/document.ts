import { z } from 'zod';
import { ToolRefusal } from '../workspace-port';
import { defineTool, MAX_DOCUMENT_CHARS, MAX_TITLE_CHARS, quote } from './define';

export const writeDocumentTool = defineTool({
  name: 'write_document',
  description:
    'Write the markdown document. mode "replace" replaces the whole body (and the title when given); mode "append" adds text at the end of the body.',
  schema: z.object({
    mode: z.enum(['replace', 'append']).describe('"replace" the whole body, or "append" to its end'),
    content: z.string().max(MAX_DOCUMENT_CHARS).describe('Markdown text: the new body, or the text to append'),
    title: z
      .string()
      .trim()
      .min(1)
      .max(MAX_TITLE_CHARS)
      .optional()
      .describe('New document title; only with mode "replace", omit to keep the current title'),
  }),
  run: async (workspace, { mode, content, title }) => {
    if (mode === 'append') {
      if (title !== undefined) throw new ToolRefusal('a title can only be set with mode "replace"; nothing was appended');
      await workspace.appendDocument(content);
      return `Appended ${content.length} characters to the document.`;
    }
    await workspace.replaceDocument(title === undefined ? { content } : { content, title });
    return `Document replaced (${content.length} characters${title === undefined ? '' : `, title ${quote(title)}`}).`;
  },
});

export const replaceSectionTool = defineTool({
  name: 'replace_section',
  description:
    'Replace the body of one markdown section of the document (the heading line stays). The section is added at the end when no heading matches.',
  schema: z.object({
    heading: z
      .string()
      .trim()
      .min(1)
      .max(MAX_TITLE_CHARS)
      .describe('The section heading text, e.g. "Introduction" or "## Introduction"; matched ignoring case'),
    content: z.string().max(MAX_DOCUMENT_CHARS).describe('The new markdown body of the section, without its heading'),
  }),
  run: async (workspace, { heading, content }) => {
    await workspace.replaceSection({ heading, content });
    return `Section ${quote(heading.replace(/^#+\s*/, ''))} replaced (${content.length} characters).`;
  },
});
