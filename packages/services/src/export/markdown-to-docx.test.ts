import mammoth from 'mammoth';
import { describe, expect, it } from 'vitest';
import { markdownToDocx } from './markdown-to-docx';

async function html(markdown: string): Promise<{ value: string; messages: unknown[] }> {
  const bytes = await markdownToDocx(markdown, { title: 'T' });
  return mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
}

describe('markdownToDocx', () => {
  it('writes headings at their levels, paragraphs with emphasis, and links', async () => {
    const { value, messages } = await html(
      '# Review\n\nSome **bold**, *italic* and `code` with [a link](https://example.test/x).\n\n## Findings\n\n### Detail\n\nText.',
    );
    expect(messages).toEqual([]);
    expect(value).toContain('<h1>Review</h1>');
    expect(value).toContain('<h2>Findings</h2>');
    expect(value).toContain('<h3>Detail</h3>');
    expect(value).toContain('<strong>bold</strong>');
    expect(value).toContain('<em>italic</em>');
    expect(value).toContain('<a href="https://example.test/x">a link</a>');
  });

  it('nests lists, bulleted and numbered', async () => {
    const { value } = await html('- one\n  - one.a\n    - one.a.i\n- two\n\n1. first\n2. second\n   1. inner');
    expect(value).toContain('<ul><li>one<ul><li>one.a<ul><li>one.a.i</li></ul></li></ul></li><li>two</li></ul>');
    expect(value).toContain('<ol><li>first</li><li>second<ol><li>inner</li></ol></li></ol>');
  });

  it('writes tables cell by cell, code blocks line by line and block quotes', async () => {
    const { value } = await html('| A | B |\n| - | - |\n| 1 | 2 |\n\n```\nlet x = 1;\nlet y = 2;\n```\n\n> quoted words');
    expect(value).toContain("<table><thead><tr><th><p><strong>A</strong></p></th><th><p><strong>B</strong></p></th></tr></thead><tbody><tr><td><p>1</p></td><td><p>2</p></td></tr></tbody></table>");
    expect(value).toContain('<p>let x = 1;</p><p>let y = 2;</p>');
    expect(value).toContain('<em>quoted words</em>');
  });

  it('keeps unsafe link targets as text and survives an empty document', async () => {
    const { value } = await html('[click](javascript:alert(1))');
    expect(value).toBe('<p>click</p>');
    expect((await html('')).value).toBe('');
  });
});
