// A self-contained, browsable reference for the OpenAPI document: no scripts from
// other hosts (the studio must work offline), just the operations and their schemas.
import type { buildOpenApiDocument } from './document';

type Doc = ReturnType<typeof buildOpenApiDocument>;

const escapeHtml = (s: string) =>
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
  security?: unknown[];
}

/** The catch-all that answers unknown `/api/*` paths with a JSON 404: not an operation anyone calls. */
const isCatchAll = (path: string) => /\{unknown\}/.test(path);

const anchorOf = (method: string, path: string) => `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '');

export function renderApiReference(doc: Doc): string {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    if (isCatchAll(path)) continue;
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as Operation;
      const tag = op.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  const toc: string[] = [];
  const sections: string[] = [];
  for (const [tag, operations] of byTag) {
    toc.push(`<li><a href="#tag-${escapeHtml(tag)}">${escapeHtml(tag)}</a><ul>${operations
      .map(({ method, path, op }) => `<li><a href="#${anchorOf(method, path)}"><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></a>${op.summary ? ` <span class="s">${inlineMarkdown(op.summary)}</span>` : ''}</li>`)
      .join('')}</ul></li>`);
    sections.push(`<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>`);
    for (const { method, path, op } of operations) sections.push(renderOperation(method, path, op));
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(doc.info.title)} — reference</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1c2a22;overflow-wrap:anywhere}
h1{margin-bottom:.2rem} h2{margin:1.6rem 0 .4rem;text-transform:capitalize} .op{border:1px solid #dfe7e2;border-radius:8px;padding:.6rem 1rem;margin:.8rem 0}
h3{margin:.2rem 0;font-size:15px} .m{display:inline-block;min-width:4.2em;font-size:12px;font-weight:700;color:#fff;border-radius:4px;padding:1px 6px;text-align:center}
.get{background:#2f7d57}.post{background:#2c5fa8}.patch{background:#8a5f0f}.put{background:#7a4fa8}.delete{background:#b23b3b}
pre{background:#f4f7f5;padding:.5rem;border-radius:6px;overflow:auto;max-height:320px;font-size:12px} .d{color:#3f4d45} small,.s{color:#5b6961}
nav ul{list-style:none;padding-left:1rem;margin:.2rem 0} nav>ul{padding-left:0} nav li{margin:.15rem 0} nav a{color:#1f5a8a;text-decoration:none} nav a:hover,nav a:focus{text-decoration:underline}
nav>ul>li>a{font-weight:600;text-transform:capitalize} a:focus-visible{outline:2px solid #2c5fa8;outline-offset:2px}
code{background:#f4f7f5;border-radius:3px;padding:0 3px}
</style></head><body>
<header><h1>${escapeHtml(doc.info.title)}</h1>${markdownToHtml(doc.info.description ?? '')}
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${doc.openapi}).</p></header>
<nav aria-label="Table of contents" data-testid="api-toc"><h2>Contents</h2><ul>${toc.join('')}</ul></nav>
<main>
${sections.join('\n')}
</main>
</body></html>`;
}

function renderOperation(method: string, path: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map((p) => `<code>${escapeHtml(p.name)}</code> <small>(${p.in}${p.required ? ', required' : ''})</small>`)
    .join(', ');
  const body = op.requestBody?.content['application/json']?.schema;
  const responses = Object.entries(op.responses)
    .map(([status, r]) => {
      const schema = Object.values(r.content ?? {})[0]?.schema;
      return `<li><b>${status}</b> ${inlineMarkdown(r.description)}${schema ? schemaBlock(schema) : ''}</li>`;
    })
    .join('');
  return `<section class="op" id="${anchorOf(method, path)}">
  <h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code>${op.security ? ' <small>public</small>' : ''}</h3>
  <p>${inlineMarkdown(op.summary ?? '')}</p>${op.description ? `<div class="d">${markdownToHtml(op.description)}</div>` : ''}
  ${params ? `<p>Parameters: ${params}</p>` : ''}
  ${body ? `<details><summary>Request body</summary>${schemaBlock(body)}</details>` : ''}
  <ul class="r">${responses}</ul>
</section>`;
}

/**
 * The Markdown the descriptions use — paragraphs, `-` lists, `code`, **bold**, *emphasis* and
 * links — as HTML. Everything is escaped first, so a description can add no markup of its own;
 * a link keeps only an http(s), relative or fragment target.
 */
export function markdownToHtml(markdown: string): string {
  const blocks = markdown.trim().split(/\n\s*\n/);
  return blocks
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((line) => /^\s*[-*] /.test(line))) {
        return `<ul>${lines.map((line) => `<li>${inlineMarkdown(line.replace(/^\s*[-*] /, ''))}</li>`).join('')}</ul>`;
      }
      return `<p>${inlineMarkdown(lines.join(' '))}</p>`;
    })
    .join('');
}

export function inlineMarkdown(text: string): string {
  const codes: string[] = [];
  // Code spans first, kept aside so nothing inside them is read as emphasis or a link; the
  // placeholder `<n>` cannot occur in escaped text.
  let html = escapeHtml(text).replace(/`([^`]+)`/g, (_m, code: string) => {
    codes.push(`<code>${code}</code>`);
    return `<${codes.length - 1}>`;
  });
  html = html
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?!\w)/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (match, label: string, href: string) =>
      /^(https?:\/\/|\/|#)/.test(href) ? `<a href="${href}">${label}</a>` : match,
    );
  return html.replace(/<(\d+)>/g, (_m, i: string) => codes[Number(i)]!);
}

function schemaBlock(schema: unknown): string {
  return `<pre tabindex="0">${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;
}
