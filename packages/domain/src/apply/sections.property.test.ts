import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSection, markdownHeadings, putSection, sectionText, splitMarkdownParts } from './sections';

const line = fc.oneof(
  fc.constantFrom('# Title', '## Findings', '### Details', '## Method', '#### Deep', '###### Six', '```', '~~~', '', '   ', '\r'),
  fc.constantFrom('text', 'more text', '#not', '  # indented', '    # code', '## Findings ##', '```js', '`', '-'),
  fc.string({ maxLength: 12 }),
);
const markdown = fc.array(line, { maxLength: 30 }).chain((lines) => fc.boolean().map((end) => lines.join('\n') + (end ? '\n' : '')));

describe('markdown section split (property)', () => {
  it('joining the parts gives the document back', () => {
    fc.assert(
      fc.property(markdown, (doc) => {
        expect(splitMarkdownParts(doc).map((part) => part.text).join('')).toBe(doc);
      }),
    );
  });

  it('every part but the preamble starts at a heading line, and a section is a run of whole parts', () => {
    fc.assert(
      fc.property(markdown, (doc) => {
        const parts = splitMarkdownParts(doc);
        let offset = 0;
        const starts = new Set<number>();
        for (const part of parts) {
          if (part.heading) expect(part.heading.start).toBe(offset);
          starts.add(offset);
          offset += part.text.length;
        }
        starts.add(doc.length);
        for (const heading of markdownHeadings(doc)) {
          const range = findSection(doc, heading.text)!;
          expect(starts.has(range.start) && starts.has(range.end)).toBe(true);
        }
      }),
    );
  });

  it('putting a section of the source onto a target makes the target hold that section', () => {
    fc.assert(
      fc.property(markdown, markdown, (source, target) => {
        for (const heading of markdownHeadings(source).filter((h) => h.text !== '')) {
          const section = sectionText(source, heading.text)!;
          const { content } = putSection(target, heading.text, section);
          // The first section of that heading on the result is the source's, up to trailing whitespace
          // (unless an earlier heading of the target hides it — then the target held the heading).
          const placed = sectionText(content, heading.text);
          expect(placed).not.toBeNull();
          if (findSection(target, heading.text) === null) expect(content.endsWith(`${section.replace(/\s+$/, '')}\n`)).toBe(true);
        }
      }),
    );
  });
});
