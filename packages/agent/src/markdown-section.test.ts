import { describe, expect, it } from 'vitest';
import { replaceMarkdownSection } from './markdown-section';

const doc = ['# Guide', '', 'Intro text.', '', '## Setup', 'old setup', '### Detail', 'old detail', '## Usage', 'use it'].join('\n');

describe('replaceMarkdownSection', () => {
  it('replaces a section body up to the next heading of the same level, subsections included', () => {
    const out = replaceMarkdownSection(doc, 'setup', 'new setup');
    expect(out).toBe(['# Guide', '', 'Intro text.', '', '## Setup', '', 'new setup', '', '## Usage', 'use it'].join('\n'));
  });

  it('accepts the heading with its # marks and matches ignoring case', () => {
    expect(replaceMarkdownSection(doc, '### DETAIL', 'x')).toContain('### Detail\n\nx\n\n## Usage');
  });

  it('replaces the last section up to the end', () => {
    expect(replaceMarkdownSection(doc, 'Usage', 'new usage').endsWith('## Usage\n\nnew usage\n')).toBe(true);
  });

  it('ignores headings inside fenced code', () => {
    const fenced = '## A\n```\n## B\n```\ntext\n## B\nreal';
    expect(replaceMarkdownSection(fenced, 'B', 'new')).toBe('## A\n```\n## B\n```\ntext\n## B\n\nnew\n');
  });

  it('appends a missing section', () => {
    expect(replaceMarkdownSection('# Guide\n\ntext\n', 'Notes', 'n')).toBe('# Guide\n\ntext\n\n## Notes\n\nn\n');
    expect(replaceMarkdownSection('', '### Notes', 'n')).toBe('### Notes\n\nn\n');
  });
});
