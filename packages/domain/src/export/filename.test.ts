import { describe, expect, it } from 'vitest';
import { attachmentDisposition, safeFilename } from './filename';

describe('safeFilename', () => {
  it('keeps a plain title and adds the extension', () => {
    expect(safeFilename('Essay on bees', 'md')).toBe('Essay on bees.md');
  });

  it('drops path separators, quotes, control characters and leading dots', () => {
    expect(safeFilename('../../etc/"passwd"\u0000\n', 'md')).toBe('etc passwd.md');
  });

  it('falls back to "conversation" when nothing printable is left and clamps long titles', () => {
    expect(safeFilename('///', 'zip')).toBe('conversation.zip');
    expect(safeFilename('x'.repeat(300), 'md')).toHaveLength(83);
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
