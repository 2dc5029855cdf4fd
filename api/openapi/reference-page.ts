/** Renders the OpenAPI document as one self-contained HTML page (inline CSS, no scripts). */
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

interface Doc {
  info: { title: string; description: string };
  paths: Record<string, Record<string, OperationDoc>>;
  components: { schemas: Record<string, unknown> };
}
interface OperationDoc {
  summary: string;
  description?: string;
  tags: string[];
  security?: Record<string, unknown>[];
  parameters: { in: string; name: string; description: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}

export function renderReference(document: object): string {
  const doc = document as Doc;
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0] ?? 'Other';
      const section = byTag.get(tag) ?? [];
      section.push(renderOperation(method, path, op));
      byTag.set(tag, section);
    }
  }
  const sections = [...byTag].map(([tag, ops]) => `<h2>${escapeHtml(tag)}</h2>${ops.join('')}`).join('');
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<h3 id="schema-${name}">${name}</h3><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(doc.info.title)} API</title><style>
body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:0 auto;padding:1rem;color:#1b1f24}
h1{margin-bottom:.2rem}h2{border-bottom:2px solid #ddd;margin-top:2rem}
.op{border:1px solid #ddd;border-radius:8px;padding:.6rem 1rem;margin:.8rem 0}
.m{display:inline-block;min-width:4.5rem;font-weight:700;text-transform:uppercase}
code,pre{font:13px ui-monospace,monospace;background:#f5f6f8;border-radius:4px}
pre{padding:.6rem;overflow:auto}td,th{text-align:left;padding:.15rem .6rem .15rem 0;vertical-align:top}
</style></head><body><h1>${escapeHtml(doc.info.title)}</h1><p>${escapeHtml(doc.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>${sections}<h2>Schemas</h2>${schemas}</body></html>`;
}

function renderOperation(method: string, path: string, op: OperationDoc): string {
  const security = (op.security ?? []).map((set) => Object.keys(set).join(' + ')).join(' <em>or</em> ');
  const params = op.parameters
    .map(
      (p) =>
        `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}${p.required ? ', required' : ''}</td><td>${escapeHtml(p.description)}</td></tr>`,
    )
    .join('');
  const body = op.requestBody?.content['application/json']?.schema;
  const responses = Object.entries(op.responses)
    .map(([status, r]) => `<tr><td>${status}</td><td>${escapeHtml(r.description)}${schemaLink(r.content)}</td></tr>`)
    .join('');
  return `<div class="op"><div><span class="m">${method}</span><code>${escapeHtml(path)}</code></div>
<p><strong>${escapeHtml(op.summary)}</strong>${op.description ? `<br>${escapeHtml(op.description)}` : ''}</p>
${security ? `<p>Credentials: ${security}</p>` : '<p>No credentials.</p>'}
${params ? `<table><tr><th>Parameter</th><th>In</th><th></th></tr>${params}</table>` : ''}
${body ? `<p>Body (JSON):</p><pre>${escapeHtml(JSON.stringify(body, null, 2))}</pre>` : ''}
<table><tr><th>Status</th><th>Meaning</th></tr>${responses}</table></div>`;
}

function schemaLink(content?: Record<string, { schema: unknown }>): string {
  const ref = (Object.values(content ?? {})[0]?.schema as { $ref?: string } | undefined)?.$ref;
  const name = ref?.split('/').pop();
  return name ? ` — <a href="#schema-${name}">${name}</a>` : '';
}

const pages = new WeakMap<object, string>();

/** The reference of a document, rendered once. */
export function referencePage(document: object): string {
  let page = pages.get(document);
  if (page === undefined) pages.set(document, (page = renderReference(document)));
  return page;
}
