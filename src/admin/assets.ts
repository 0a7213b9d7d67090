/**
 * The admin app's files, all held in memory: the HTML shell every page path answers, the
 * script (bundled by a macro: embedded in the compiled binary), the style sheet. Nothing is
 * loaded from another host, and the Content-Security-Policy says so to the browser too.
 */
import { adminBundle } from './bundle' with { type: 'macro' };
import { ADMIN_CSS } from './ui/style';
import { sized } from '../http/respond';

/** Scripts, styles, images and requests from this origin only; no framing, no inline code. */
export const ADMIN_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

interface Asset {
  type: string;
  body: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
  etag: string;
}

function asset(type: string, text: string): Asset {
  const body = new TextEncoder().encode(text);
  return { type, body, gzip: Bun.gzipSync(body, { level: 9 }), etag: `"${Bun.hash(body).toString(36)}"` };
}

const scripts = adminBundle();
const entry = Object.keys(scripts).find((name) => name.startsWith('app-'))!;
const script = asset('text/javascript; charset=utf-8', scripts[entry]!);
const style = asset('text/css; charset=utf-8', ADMIN_CSS);
/** The chunks the app imports statically: preloaded with it, so they do not wait for it to parse. */
const preloaded = [...new Set([...scripts[entry]!.matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]!))].filter((name) => Object.hasOwn(scripts, name));

const html = asset(
  'text/html; charset=utf-8',
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Folio Admin</title>
<link rel="stylesheet" href="/admin/assets/app.css?v=${style.etag.slice(1, -1)}">
${preloaded.map((name) => `<link rel="modulepreload" href="/admin/assets/${name}">\n`).join('')}<script type="module" src="/admin/assets/${entry}"></script>
</head>
<body><div id="app"></div></body>
</html>
`,
);

/** The app, its chunks (named by their content's hash: the rich-text editor) and the style sheet. */
const FILES: Record<string, Asset> = { 'app.css': style };
for (const [name, text] of Object.entries(scripts)) FILES[name] = name === entry ? script : asset('text/javascript; charset=utf-8', text);

/** Sizes for the report and the tests, as sent compressed: what a page loads first (the app and its preloaded chunks), and every script. */
export const SCRIPT_GZIP_BYTES = script.gzip.length + preloaded.reduce((n, name) => n + FILES[name]!.gzip.length, 0);
export const ALL_SCRIPTS_GZIP_BYTES = Object.entries(FILES).reduce((n, [name, file]) => n + (name.endsWith('.js') ? file.gzip.length : 0), 0);

function send(file: Asset, request: Request, cacheControl: string): Response {
  const headers: Record<string, string> = { 'content-type': file.type, 'cache-control': cacheControl, etag: file.etag, vary: 'Accept-Encoding' };
  if (request.headers.get('if-none-match') === file.etag) return new Response(null, { status: 304, headers });
  const gzip = /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '');
  if (gzip) headers['content-encoding'] = 'gzip';
  return sized(gzip ? file.gzip : file.body, { headers });
}

/** The app's HTML; the script routes in the browser. */
export const pageResponse = (request: Request) => send(html, request, 'no-cache');

/** A file under /admin/assets/, or null. The URLs carry the content's hash, so a year of caching is safe. */
export function assetResponse(name: string, request: Request): Response | null {
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  return file ? send(file, request, 'public, max-age=31536000, immutable') : null;
}
