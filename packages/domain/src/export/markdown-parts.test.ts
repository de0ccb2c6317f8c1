import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownHeadings } from '../apply/sections';
import { documentToMarkdown, nestHeadings } from './document-markdown';
import { pathMarkdownParts, pathToMarkdown } from './markdown';

const emptyWorkspace = { objective: null, document: { title: '', content: '' }, preferences: [], todos: [], artifacts: [] };

/** What follows the document in an export of a path with no steps and an empty workspace. */
const EMPTY_REST =
  '## How this document was made\n\n_No steps yet._\n\n## Workspace\n\n### Objective\n\n_none_\n\n### Preferences\n\n_none_\n\n### Todos\n\n_none_\n\n### Artifacts\n\n_none_\n';

/**
 * The document as the export wrote it when it built it as one string: the content trimmed when it
 * opens with its one top heading, else a heading and the content with its headings nested, trimmed.
 */
function wholeTextDocument(pathTitle: string, document: { title: string; content: string }): string {
  const { content } = document;
  const tops = markdownHeadings(content).filter((h) => h.level === 1);
  if (tops.length === 1 && content.slice(0, tops[0]!.start).trim() === '') return `${content.trim()}\n`;
  const heading = documentToMarkdown({ pathTitle, document: { title: document.title, content: '' } });
  return content.trim() === '' ? heading : `${heading}\n${nestHeadings(content, 2).trim()}\n`;
}

function wholeTextPath(pathTitle: string, document: { title: string; content: string }): string {
  const empty = document.content.trim() === '' ? '_The document is empty._\n\n' : '';
  return `${wholeTextDocument(pathTitle, document).trimEnd()}\n\n${empty}${EMPTY_REST}`;
}

// Lines that move the outline (top headings, headings to nest, fences that hide them) and the
// whitespace `trim` removes, Unicode's included, at either end and in between.
const line = fc.constantFrom(
  '# Top',
  '## Second',
  '### Third ###',
  '###### Six',
  '   # indented',
  '#not a heading',
  '```',
  '```md',
  '~~~',
  '# in a fence?',
  'text',
  'Évidence 証拠 😀',
  '',
  '   ',
  '\t',
  '\u00a0',
  '\u2028',
  '\ufeff',
);
const content = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), fc.constantFrom('', '\n', '  \n', '\r\n'), fc.constantFrom('', '\n', '\n\n  ', '\r\n'))
  .map(([lines, newline, before, after]) => `${before}${lines.join(newline)}${after}`);
/** The text cut at the given places (any, even between `\r` and `\n` or inside a heading's `#`s). */
function cut(text: string, at: readonly number[]): string[] {
  const points = [...new Set(at.map((n) => n % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...points].map((from, i) => text.slice(from, points[i] ?? text.length));
}
const title = fc.constantFrom('', '   ', 'Grant', '# Heading', 'append: **Bees**', '## 3. Findings…');

describe('pathMarkdownParts', () => {
  it('joins to the path as one string, for documents with or without their own top heading, blank, nested or CRLF', () => {
    fc.assert(
      fc.property(title, title, content, (pathTitle, documentTitle, text) => {
        const document = { title: documentTitle, content: text };
        const input = { title: pathTitle, steps: [], workspace: { ...emptyWorkspace, document } };
        const expected = wholeTextPath(pathTitle, document);
        expect(pathMarkdownParts(input).join('')).toBe(expected);
        expect(pathToMarkdown(input)).toBe(expected);
        expect(documentToMarkdown({ pathTitle, document })).toBe(wholeTextDocument(pathTitle, document));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the same text for a document in pieces cut anywhere as for the whole', () => {
    fc.assert(
      fc.property(title, title, content, fc.array(fc.nat(), { maxLength: 8 }), (pathTitle, documentTitle, text, at) => {
        const document = { title: documentTitle, content: text };
        const inPieces = { title: documentTitle, content: cut(text, at) };
        const input = { title: pathTitle, steps: [], workspace: { ...emptyWorkspace, document: inPieces } };
        expect(pathMarkdownParts(input).join('')).toBe(wholeTextPath(pathTitle, document));
        expect(documentToMarkdown({ pathTitle, document: inPieces })).toBe(wholeTextDocument(pathTitle, document));
      }),
      { numRuns: 2000 },
    );
  });

  it('joins to the path for the cases a writer meets by hand', () => {
    for (const text of ['', '   \n\t', '# Own title\n\nText\n', 'Text\n\n# Part\n\n## Sub', '\r\n# A\r\n\r\n## B\r\n', '```\n# not\n```\n# Real']) {
      const document = { title: 'Doc', content: text };
      const input = { title: 'Path', steps: [], workspace: { ...emptyWorkspace, document } };
      expect(pathMarkdownParts(input).join('')).toBe(wholeTextPath('Path', document));
    }
  });

  it('never puts a 1 MB document together with anything: every part over 64 K characters is a run of the document as stored', () => {
    const paragraph = (i: number) => `Paragraph ${i} ${'word '.repeat(45)}`;
    const toNest = Array.from({ length: 4500 }, (_, i) => (i % 100 === 0 ? `# Part ${i}\n\n## Sub ${i}` : paragraph(i))).join('\n\n');
    const ownTitle = `\r\n# Own title\r\n\r\n${Array.from({ length: 4500 }, (_, i) => (i % 100 === 0 ? `## Sub ${i}` : paragraph(i))).join('\r\n\r\n')}\n\n`;
    for (const text of [toNest, ownTitle]) {
      expect(text.length).toBeGreaterThan(1_000_000);
      const parts = pathMarkdownParts({ title: 'Path', steps: [], workspace: { ...emptyWorkspace, document: { title: '', content: text } } });
      for (const part of parts) {
        if (part.length > 64 * 1024) expect(text.includes(part)).toBe(true);
      }
      expect(parts.join('')).toBe(wholeTextPath('Path', { title: '', content: text }));
      // In pieces of 32 K characters, no part is longer than a piece and a line.
      const pieces = cut(text, Array.from({ length: Math.ceil(text.length / 32_768) }, (_, i) => (i + 1) * 32_768));
      const pieceParts = pathMarkdownParts({ title: 'Path', steps: [], workspace: { ...emptyWorkspace, document: { title: '', content: pieces } } });
      expect(Math.max(...pieceParts.map((part) => part.length))).toBeLessThanOrEqual(32_768 + 300);
      expect(pieceParts.join('')).toBe(wholeTextPath('Path', { title: '', content: text }));
    }
  });
});
