import { describe, expect, it } from 'vitest';
import { buildOpenApiDocumentFromContracts } from './document';
import { inlineMarkdown, markdownToHtml, renderApiReference } from './reference-page';
import { API_ROUTE_CONTRACTS } from './route-modules';

const html = renderApiReference(buildOpenApiDocumentFromContracts('http://127.0.0.1:3000', API_ROUTE_CONTRACTS));

describe('the API reference page (/api/docs)', () => {
  it('leaves out the catch-all /api/{unknown} entries', () => {
    expect(html).not.toContain('{unknown}');
    expect(html).toContain('<code>/api/tokens</code>');
  });

  it('has a table of contents whose every link lands on an operation', () => {
    const nav = /<nav aria-label="Table of contents"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
    const targets = [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThanOrEqual(30);
    for (const target of targets) expect(html, target).toContain(`id="${target}"`);
    expect(targets).toContain('delete-api-tokens-id');
  });

  it('renders the descriptions’ Markdown, escaping everything else', () => {
    expect(markdownToHtml('Send `Authorization: Bearer …`.\n\n- **one**\n- *two*')).toBe(
      '<p>Send <code>Authorization: Bearer …</code>.</p><ul><li><strong>one</strong></li><li><em>two</em></li></ul>',
    );
    expect(inlineMarkdown('see [docs](/api/docs) not [x](javascript:alert(1)) <script>')).toBe(
      'see <a href="/api/docs">docs</a> not [x](javascript:alert(1)) &lt;script&gt;',
    );
    expect(inlineMarkdown('`**not bold**` and a_b_c')).toBe('<code>**not bold**</code> and a_b_c');
    // Outside the schema blocks (JSON, shown as is), no Markdown code span is left raw.
    expect(html.replace(/<pre[^>]*>[\s\S]*?<\/pre>/g, '')).not.toMatch(/`[^`<]+`/);
  });
});
