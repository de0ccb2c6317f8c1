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

export function renderApiReference(doc: Doc): string {
  const sections: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as Operation;
      const params = (op.parameters ?? [])
        .map((p) => `<code>${escapeHtml(p.name)}</code> <small>(${p.in}${p.required ? ', required' : ''})</small>`)
        .join(', ');
      const body = op.requestBody?.content['application/json']?.schema;
      const responses = Object.entries(op.responses)
        .map(([status, r]) => {
          const schema = Object.values(r.content ?? {})[0]?.schema;
          return `<li><b>${status}</b> ${escapeHtml(r.description)}${schema ? schemaBlock(schema) : ''}</li>`;
        })
        .join('');
      sections.push(`<section class="op" id="${escapeHtml(`${method}-${path}`)}">
  <h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code>${op.security ? ' <small>public</small>' : ''}</h3>
  <p>${escapeHtml(op.summary ?? '')}</p>${op.description ? `<p class="d">${escapeHtml(op.description)}</p>` : ''}
  ${params ? `<p>Parameters: ${params}</p>` : ''}
  ${body ? `<details><summary>Request body</summary>${schemaBlock(body)}</details>` : ''}
  <ul class="r">${responses}</ul>
</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(doc.info.title)} — reference</title>
<style>
body{font:14px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1c2a22}
h1{margin-bottom:.2rem} .op{border:1px solid #dfe7e2;border-radius:8px;padding:.6rem 1rem;margin:.8rem 0}
h3{margin:.2rem 0;font-size:15px} .m{display:inline-block;min-width:4.2em;font-size:12px;font-weight:700;color:#fff;border-radius:4px;padding:1px 6px;text-align:center}
.get{background:#2f7d57}.post{background:#2c5fa8}.patch{background:#9a6b12}.put{background:#7a4fa8}.delete{background:#b23b3b}
pre{background:#f4f7f5;padding:.5rem;border-radius:6px;overflow:auto;max-height:320px;font-size:12px} .d{color:#4d5d54} small{color:#6b7a72}
</style></head><body>
<h1>${escapeHtml(doc.info.title)}</h1><p>${escapeHtml(doc.info.description)}</p>
<p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${doc.openapi}).</p>
${sections.join('\n')}
</body></html>`;
}

function schemaBlock(schema: unknown): string {
  return `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;
}
