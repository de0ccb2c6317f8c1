import { describe, expect, it } from 'vitest';
import { displayedDocumentTitle } from './document-title';

describe('displayedDocumentTitle', () => {
  it('keeps an own title, else follows the first heading, else has none', () => {
    expect(displayedDocumentTitle('Mine', '# Other')).toBe('Mine');
    expect(displayedDocumentTitle('', 'Intro text\n\n## Bees of the garden ##\n# Later')).toBe('Bees of the garden');
    expect(displayedDocumentTitle('  ', 'no heading here\n#hashtag')).toBeNull();
  });
});
