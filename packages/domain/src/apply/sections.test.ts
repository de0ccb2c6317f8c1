import { describe, expect, it } from 'vitest';
import { findSection, markdownHeadings, markdownHeadingsByPiece, putSection, sectionText, splitMarkdownParts } from './sections';

const doc = [
  '# Report',
  'Intro text.',
  '',
  '## Findings',
  'We found things.',
  '',
  '### Details',
  'Deep detail.',
  '',
  '## Method',
  'How.',
  '',
].join('\n');

describe('markdown headings', () => {
  it('finds headings of every level with their text, closing hashes dropped', () => {
    expect(markdownHeadings('# One\n###### Six ##\n####### seven\n  ## Indented\n#NoSpace\n').map((h) => [h.level, h.text])).toEqual([
      [1, 'One'],
      [6, 'Six'],
      [2, 'Indented'],
    ]);
  });

  it('does not count a heading inside a fenced code block', () => {
    const text = '# Real\n```md\n# Not a heading\n```\n~~~\n## Also not\n~~~\n## Second\n';
    expect(markdownHeadings(text).map((h) => h.text)).toEqual(['Real', 'Second']);
  });

  it('keeps a fence open until a closing fence of the same character and at least its length', () => {
    const text = '````\n```\n# inside\n````\n# outside\n';
    expect(markdownHeadings(text).map((h) => h.text)).toEqual(['outside']);
  });

  it('reads a document in line-aligned pieces as the whole: a fence open at the end of one piece goes on into the next', () => {
    const pieces = ['# A\n```\n', '# hidden\n', '```\n## B\n', 'text\n### C'];
    expect(markdownHeadingsByPiece(pieces).map((list) => list.map((h) => [h.start, h.text]))).toEqual([[[0, 'A']], [], [[4, 'B']], [[5, 'C']]]);
    expect(markdownHeadings(pieces.join('')).map((h) => h.text)).toEqual(['A', 'B', 'C']);
  });
});

describe('sections', () => {
  it('runs a section to the next heading of the same or a higher level, subsections included', () => {
    expect(sectionText(doc, 'Findings')).toBe('## Findings\nWe found things.\n\n### Details\nDeep detail.\n\n');
    expect(sectionText(doc, 'Details')).toBe('### Details\nDeep detail.\n\n');
    expect(sectionText(doc, 'Report')).toBe(doc);
    expect(sectionText(doc, 'Method')).toBe('## Method\nHow.\n');
  });

  it('matches the heading text with whitespace collapsed, not case', () => {
    expect(findSection(doc, '  Findings ')).not.toBeNull();
    expect(findSection(doc, 'findings')).toBeNull();
  });

  it('replaces the section of the same heading on the target, keeping the spacing around it', () => {
    const target = '# Report\nOther intro.\n\n## Findings\nOld findings.\n\n## Next\nKeep me.\n';
    const { content, effect } = putSection(target, 'Findings', sectionText(doc, 'Findings')!);
    expect(effect).toBe('replaced');
    expect(content).toBe('# Report\nOther intro.\n\n## Findings\nWe found things.\n\n### Details\nDeep detail.\n\n## Next\nKeep me.\n');
  });

  it('appends the section after a blank line when the target has no such heading', () => {
    expect(putSection('# Draft\nText.', 'Method', '## Method\nHow.\n')).toEqual({ content: '# Draft\nText.\n\n## Method\nHow.\n', effect: 'added' });
    expect(putSection('# Draft\n', 'Method', '## Method\nHow.')).toEqual({ content: '# Draft\n\n## Method\nHow.\n', effect: 'added' });
    expect(putSection('', 'Method', '## Method\nHow.\n\n')).toEqual({ content: '## Method\nHow.\n', effect: 'added' });
  });

  it('changes nothing when the target section already equals the source one', () => {
    const { content, effect } = putSection(doc, 'Method', '## Method\nHow.\n\n\n');
    expect(effect).toBe('unchanged');
    expect(content).toBe(doc);
  });

  it('cuts a document with no heading into one preamble part', () => {
    expect(splitMarkdownParts('just text')).toEqual([{ heading: null, text: 'just text' }]);
    expect(splitMarkdownParts('')).toEqual([{ heading: null, text: '' }]);
  });
});
