/**
 * The GraphQL IDE a browser gets at the endpoint when the landing page is on: one small page
 * held in memory (nothing is loaded from another host, and its Content-Security-Policy allows
 * only its own inline script and style, by hash, and requests to this origin). An editor for
 * the operation and its variables, an optional bearer token, the answer, and the root fields
 * of the schema (from introspection) to start from. Ctrl/Cmd+Enter runs the operation.
 */
import { createHash } from 'node:crypto';
import { sized } from './respond';

const STYLE = `body{margin:0;font:14px system-ui,sans-serif;display:grid;grid-template-columns:220px 1fr 1fr;grid-template-rows:auto 1fr;height:100vh}
header{grid-column:1/4;display:flex;gap:8px;align-items:center;padding:6px 10px;border-bottom:1px solid #ccc;background:#f6f6f8}
header b{margin-right:auto}input{width:320px}button{padding:4px 14px}
nav{overflow:auto;border-right:1px solid #ddd;padding:6px;font-size:12px}nav div{cursor:pointer;padding:1px 0}nav div:hover{text-decoration:underline}nav h4{margin:8px 0 4px}
section{display:grid;grid-template-rows:2fr 1fr;min-height:0}textarea,pre{margin:0;border:0;border-right:1px solid #ddd;padding:8px;font:13px ui-monospace,monospace;resize:none;overflow:auto}
textarea+textarea{border-top:1px solid #ddd}pre{white-space:pre-wrap}`;

const SCRIPT = `(() => {
const $ = (id) => document.getElementById(id);
const endpoint = document.body.dataset.endpoint;
const q = $('query'), v = $('variables'), out = $('answer'), token = $('token');
q.value = localStorage.getItem('folio-gql-query') || '{\\n  __typename\\n}';
v.value = localStorage.getItem('folio-gql-variables') || '';
token.value = sessionStorage.getItem('folio-gql-token') || '';
async function post(body) {
  const headers = { 'content-type': 'application/json' };
  if (token.value.trim()) headers.authorization = 'Bearer ' + token.value.trim();
  const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, json: await response.json() };
}
async function run() {
  localStorage.setItem('folio-gql-query', q.value);
  localStorage.setItem('folio-gql-variables', v.value);
  sessionStorage.setItem('folio-gql-token', token.value);
  let variables;
  try { variables = v.value.trim() ? JSON.parse(v.value) : undefined; } catch (e) { out.textContent = 'Variables: ' + e.message; return; }
  out.textContent = '…';
  try { const { status, json } = await post({ query: q.value, variables }); out.textContent = 'HTTP ' + status + '\\n' + JSON.stringify(json, null, 2); }
  catch (e) { out.textContent = String(e); }
}
function unwrap(t) { return t.ofType ? unwrap(t.ofType) : t; }
async function schema() {
  const { json } = await post({ query: '{ __schema { queryType { fields { name type { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } mutationType { fields { name } } } }' });
  const nav = $('fields');
  if (!json.data) { nav.textContent = 'Introspection is off.'; return; }
  const list = (title, fields, kind) => {
    const h = document.createElement('h4'); h.textContent = title; nav.append(h);
    for (const f of fields || []) {
      const d = document.createElement('div'); d.textContent = f.name;
      d.onclick = () => { q.value = kind + ' {\\n  ' + f.name + (kind === 'query' && unwrap(f.type).kind === 'OBJECT' ? ' {\\n    __typename\\n  }' : '') + '\\n}'; q.focus(); };
      nav.append(d);
    }
  };
  list('Queries', json.data.__schema.queryType.fields, 'query');
  list('Mutations', json.data.__schema.mutationType && json.data.__schema.mutationType.fields, 'mutation');
}
$('run').onclick = run;
document.addEventListener('keydown', (e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); } });
schema();
})();`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const CSP = `default-src 'none'; script-src ${hash(SCRIPT)}; style-src ${hash(STYLE)}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function graphqlIde(endpoint: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Folio GraphQL</title><style>${STYLE}</style></head>
<body data-endpoint="${escape(endpoint)}">
<header><b>Folio GraphQL</b><input id="token" placeholder="Bearer token (optional)" autocomplete="off"><button id="run" title="Ctrl+Enter">Run</button></header>
<nav id="fields"></nav>
<section><textarea id="query" spellcheck="false" aria-label="Operation"></textarea><textarea id="variables" spellcheck="false" aria-label="Variables (JSON)" placeholder="Variables (JSON)"></textarea></section>
<pre id="answer" aria-live="polite"></pre>
<script>${SCRIPT}</script>
</body></html>`;
  return sized(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-store' } });
}
