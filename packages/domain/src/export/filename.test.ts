import { describe, expect, it } from 'vitest';
import { plainTitle } from '../conversation/plain-title';
import { attachmentDisposition, safeFilename, uniqueFilenames } from './filename';

describe('safeFilename', () => {
  it('keeps a plain title and adds the extension', () => {
    expect(safeFilename('Essay on bees', 'md')).toBe('Essay on bees.md');
  });

  it('drops path separators, quotes, control characters and leading dots', () => {
    expect(safeFilename('../../etc/"passwd"\u0000\n', 'md')).toBe('etc passwd.md');
  });

  it('falls back to "conversation" when nothing printable is left and clamps long titles', () => {
    expect(safeFilename('///', 'zip')).toBe('conversation.zip');
    expect(safeFilename('x'.repeat(300), 'md')).toHaveLength(123);
  });

  it('takes the title as plain text: no markdown markers, directive prefixes or ellipsis', () => {
    expect(safeFilename('## 3. Findings on working memory…', 'md')).toBe('3. Findings on working memory.md');
    expect(safeFilename('append: **Moderators** of the `effect`', 'md')).toBe('Moderators of the effect.md');
  });

  it('leaves hostile titles safe and whole below 60 characters', () => {
    const hostile = [
      '../../etc/passwd',
      'CON: <script>alert(1)</script>',
      'a\\b/c:d*e?f"g<h>i|j',
      '\u0000\u0007bell and null',
      '\u202Eright-to-left override.exe',
      '.hidden file',
      '   spaces   everywhere   ',
      'Tab\tand\nnewline',
      'emoji 🐝 and accents é',
      '%2e%2e%2f encoded',
    ];
    for (const title of hostile) {
      const name = safeFilename(title, 'md');
      expect(name).not.toMatch(/[/\\:*?"<>|\p{Cc}\p{Cf}]/u);
      expect(name.startsWith('.')).toBe(false);
      expect(name.endsWith('.md')).toBe(true);
    }
    expect(safeFilename('emoji 🐝 and accents é', 'md')).toBe('emoji 🐝 and accents é.md');
    expect(safeFilename('%2e%2e%2f encoded', 'md')).toBe('%2e%2e%2f encoded.md');
  });

  it('shortens a long name at a word boundary, well past 60 characters', () => {
    const title = 'A literature review on working memory training and its transfer to fluid intelligence in older adults across cultures';
    const name = safeFilename(title, 'md');
    expect(name.length).toBeGreaterThan(64);
    expect(title.startsWith(name.slice(0, -3))).toBe(true);
    expect(name).not.toContain('…');
  });
});

describe('plainTitle', () => {
  it('strips list markers, links and emphasis', () => {
    expect(plainTitle('- [x] see [the paper](http://x.test) _now_')).toBe('see the paper now');
    expect(plainTitle('> quoted **bold** title')).toBe('quoted bold title');
  });
});

describe('uniqueFilenames', () => {
  it('numbers repeated names, ignoring case', () => {
    expect(uniqueFilenames(['Draft.md', 'draft.md', 'Draft.md', 'Other.md'])).toEqual(['Draft.md', 'draft (2).md', 'Draft (3).md', 'Other.md']);
  });
});

describe('attachmentDisposition', () => {
  it('quotes an ASCII fallback and carries the exact name in filename*', () => {
    expect(attachmentDisposition('Bienenstöcke.md')).toBe(
      `attachment; filename="Bienenst_cke.md"; filename*=UTF-8''Bienenst%C3%B6cke.md`,
    );
  });

  it("percent-encodes the apostrophe, brackets and asterisk that RFC 8187 keeps out of filename*", () => {
    expect(attachmentDisposition("Ève's notes (draft)*.md")).toBe(
      `attachment; filename="_ve's notes (draft)*.md"; filename*=UTF-8''%C3%88ve%27s%20notes%20%28draft%29%2A.md`,
    );
  });
});
