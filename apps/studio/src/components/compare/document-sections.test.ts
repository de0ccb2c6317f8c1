import { describe, expect, it } from 'vitest';
import { sectionsToApply } from './document-sections';

describe('sections to apply', () => {
  const target = '# Bees\nBees thrive.\n## Findings\nOld finding.\n## Methods\nCounted hives.';
  const source = '# Bees\nBees thrive.\n## Findings\nNew finding.\n## Methods\nCounted hives.\n## Outlook\nMore.';

  it('offers the sections the target lacks or holds with other text, a parent with its changed subsection', () => {
    expect(sectionsToApply(source, target)).toEqual([
      { heading: 'Bees', level: 1, status: 'edited' },
      { heading: 'Findings', level: 2, status: 'edited' },
      { heading: 'Outlook', level: 2, status: 'added' },
    ]);
  });

  it('offers nothing between equal documents, nor for trailing whitespace only', () => {
    expect(sectionsToApply(target, target)).toEqual([]);
    expect(sectionsToApply(`${target}\n\n`, target)).toEqual([]);
  });

  it('a section only on the target is nothing to apply (an apply never deletes)', () => {
    expect(sectionsToApply('# A\nx', '# A\nx\n# B\ny')).toEqual([]);
  });

  it('names each heading once, ignores fenced code and empty headings', () => {
    const withFence = '## Notes\none\n```\n# not a heading\n```\n#\n## Notes\ntwo';
    expect(sectionsToApply(withFence, '')).toEqual([{ heading: 'Notes', level: 2, status: 'added' }]);
  });
});
