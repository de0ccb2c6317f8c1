import { describe, expect, it } from 'vitest';
import { documentSections, sectionsToApply } from './document-sections';

const doc = [
  'Intro text before any heading.',
  '# Bees',
  'Bees thrive.',
  '## Findings',
  'Rooftops work.',
  '### Detail',
  'Shade matters.',
  '## Methods',
  '```md',
  '# not a heading inside a fence',
  '```',
  'Counted hives.',
].join('\n');

describe('document sections', () => {
  it('runs a section to the next heading of the same or a higher level, subsections included', () => {
    const sections = documentSections(doc);
    expect(sections.map((s) => [s.heading, s.level])).toEqual([
      ['Bees', 1],
      ['Findings', 2],
      ['Detail', 3],
      ['Methods', 2],
    ]);
    expect(sections[1]!.text).toBe('## Findings\nRooftops work.\n### Detail\nShade matters.');
    expect(sections[0]!.text.endsWith('Counted hives.')).toBe(true);
  });

  it('ignores headings inside fenced code and strips closing hashes', () => {
    expect(documentSections('## Title ##\ntext\n~~~\n# fenced\n~~~').map((s) => s.heading)).toEqual(['Title']);
    expect(documentSections('#not a heading\n#\n# Real').map((s) => s.heading)).toEqual(['Real']);
  });

  it('offers the sections the target lacks or holds with other text, each heading once', () => {
    const target = '# Bees\nBees thrive.\n## Findings\nOld finding.\n## Methods\nCounted hives.';
    const source = '# Bees\nBees thrive.\n## Findings\nNew finding.\n## Methods\nCounted hives.\n## Outlook\nMore.';
    expect(sectionsToApply(source, target)).toEqual([
      { heading: 'Bees', level: 1, status: 'edited' },
      { heading: 'Findings', level: 2, status: 'edited' },
      { heading: 'Outlook', level: 2, status: 'added' },
    ]);
    expect(sectionsToApply(target, target)).toEqual([]);
  });

  it('a section only on the target is nothing to apply (an apply never deletes)', () => {
    expect(sectionsToApply('# A\nx', '# A\nx\n# B\ny')).toEqual([]);
  });
});
