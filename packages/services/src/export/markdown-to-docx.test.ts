import { strFromU8, unzipSync } from 'fflate';
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

/** The .docx's own XML parts, unzipped: what Word reads. */
async function parts(markdown: string): Promise<{ document: string; footnotes: string; html: string }> {
  const bytes = await markdownToDocx(markdown, { title: 'T' });
  const files = unzipSync(bytes);
  const read = (name: string) => (files[name] === undefined ? '' : strFromU8(files[name]));
  const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
  return { document: read('word/document.xml'), footnotes: read('word/footnotes.xml'), html: value };
}

describe('markdownToDocx round trip, feature by feature', () => {
  it('writes footnotes as Word footnotes: a reference in the text and the note in the footnotes part', async () => {
    const { document, footnotes, html } = await parts(
      'Pigeons are common.[^a] Gulls too.[^b] Pigeons again.[^a]\n\n[^a]: Counted in **2024**.\n[^b]: See the survey.\n',
    );
    expect(document.match(/<w:footnoteReference w:id="(\d+)"\/>/g)).toEqual([
      '<w:footnoteReference w:id="1"/>',
      '<w:footnoteReference w:id="2"/>',
      '<w:footnoteReference w:id="1"/>',
    ]);
    expect(document).not.toContain('[1]');
    expect(footnotes).toMatch(/<w:footnote w:id="1">[\s\S]*Counted in [\s\S]*<w:b\/>[\s\S]*2024/);
    expect(footnotes).toMatch(/<w:footnote w:id="2">[\s\S]*See the survey\./);
    // A reader that follows Word's structure finds both notes, in order, linked from the text.
    expect(html).toContain('<a href="#footnote-1" id="footnote-ref-1">[1]</a>');
    expect(html).toMatch(/<li id="footnote-1"><p>Counted in <strong>2024<\/strong>\.[^<]*<a href="#footnote-ref-1">/);
    expect(html).toMatch(/<li id="footnote-2"><p>See the survey\./);
  });

  it('keeps a reference without a definition as its Markdown text', async () => {
    const { document, footnotes } = await parts('Text.[^missing]');
    expect(document).toContain('[^missing]');
    expect(footnotes).not.toContain('missing');
  });

  it('writes task lists with a ticked or empty box on each item', async () => {
    const { html } = await parts('- [x] outline\n- [ ] intro\n  - [ ] nested');
    expect(html).toContain('<ul><li>☒ outline</li><li>☐ intro<ul><li>☐ nested</li></ul></li></ul>');
  });

  it('writes strikethrough as struck runs', async () => {
    const { document, html } = await parts('Keep ~~drop~~ this.');
    expect(document).toMatch(/<w:strike\/>[\s\S]*drop/);
    expect(html).toContain('<s>drop</s>');
  });

  it('writes a code block in the monospaced Code style, line by line, leading spaces kept', async () => {
    const { document } = await parts('```ts\nif (x) {\n  y();\n}\n```');
    expect(document.match(/<w:pStyle w:val="Code"\/>/g)).toHaveLength(3);
    expect(document).toContain('<w:t xml:space="preserve">  y();</w:t>');
    expect(document).toContain('w:ascii="Consolas"');
  });

  it('writes block quotes indented with a left border, nested quotes deeper', async () => {
    const { document, html } = await parts('> outer\n>\n> > inner');
    expect(document).toMatch(/<w:ind w:left="720"\/>[\s\S]*outer/);
    expect(document).toMatch(/<w:ind w:left="1440"\/>[\s\S]*inner/);
    expect(document.match(/<w:left w:val="single"/g)).toHaveLength(2);
    expect(html).toContain('<p><em>outer</em></p><p><em>inner</em></p>');
  });

  it('writes an image as a link to its address, named by its alt text', async () => {
    const { html } = await parts('See ![the flock](https://example.test/flock.png) and ![](https://example.test/b.png) and ![x](javascript:1).');
    expect(html).toContain('<a href="https://example.test/flock.png">Image: the flock</a>');
    expect(html).toContain('<a href="https://example.test/b.png">Image</a>');
    expect(html).toContain('<em>[Image: x]</em>');
  });

  it('writes a table nested in a list item and in a block quote, indented under it (GFM has no table in a table cell)', async () => {
    const { document, html } = await parts('- counts\n\n  | Bird | N |\n  | - | - |\n  | gull | 3 |\n\n> | Q |\n> | - |\n> | 1 |');
    // Word has no list or quote container: the tables follow the item and the quote, indented as they are.
    expect(document.match(/<w:tblInd w:type="dxa" w:w="\d+"\/>/g)).toEqual(['<w:tblInd w:type="dxa" w:w="360"/>', '<w:tblInd w:type="dxa" w:w="720"/>']);
    expect(html).toContain('<ul><li>counts</li></ul><table>');
    expect(html).toContain('<td><p>gull</p></td><td><p>3</p></td>');
    expect(html).toContain('<th><p><strong>Q</strong></p></th>');
    expect(html).toContain('<td><p>1</p></td>');
  });
});
