/**
 * `/` and `/favicon.ico`: a browser pointed at Folio finds where to go (the admin, the
 * OpenAPI document, GraphQL, the docs) instead of a JSON 404, and gets an icon. `/` answers a
 * small HTML page, or JSON for a client that asks for `application/json` (and not HTML).
 */
import { Elysia } from 'elysia';
import type { Instance } from '../../instance';
import { png } from '../../png';
import { VERSION } from '../../version';
import { json, sized } from '../respond';

/** What Folio speaks, documented where every Strapi 5 client's authors read. */
export const DOCS_URL = 'https://docs.strapi.io/cms/api/rest';

/** Nothing on the page runs or loads from elsewhere: its own styles and the icon, no script. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A 32×32 icon: a white F on Folio's blue, as a PNG inside an ICO (which every browser reads). */
function favicon(): Uint8Array {
  const size = 32;
  const rgb = new Uint8Array(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inF = x >= 10 && x <= 13 && y >= 7 && y <= 25 ? true : (y >= 7 && y <= 10 && x >= 10 && x <= 23) || (y >= 15 && y <= 18 && x >= 10 && x <= 20);
      rgb.set(inF ? [255, 255, 255] : [0x2f, 0x6f, 0xde], (y * size + x) * 3);
    }
  }
  const image = png(size, size, rgb);
  const ico = new Uint8Array(22 + image.length);
  const view = new DataView(ico.buffer);
  view.setUint16(2, 1, true); // type: icon
  view.setUint16(4, 1, true); // one image
  ico.set([size, size, 0, 0], 6); // width, height, no palette, reserved
  view.setUint16(10, 1, true); // colour planes
  view.setUint16(12, 24, true); // bits per pixel
  view.setUint32(14, image.length, true);
  view.setUint32(18, 22, true); // where the image starts
  ico.set(image, 22);
  return ico;
}

export function homeRoutes(instance: Instance) {
  const graphql = instance.config.graphql.endpoint;
  const links = [
    { rel: 'admin', href: '/admin', title: 'Folio Admin', text: 'edit content, media and settings' },
    { rel: 'openapi', href: '/api/openapi.json', title: 'OpenAPI document', text: 'every REST route of your content types, with its schemas' },
    { rel: 'graphql', href: graphql, title: 'GraphQL', text: 'the same content in Strapi 5’s GraphQL dialect (open it in a browser for the IDE)' },
    { rel: 'docs', href: DOCS_URL, title: 'REST API docs', text: 'Folio speaks Strapi 5’s REST dialect: filters, populate, sort, locale, status' },
  ];
  const types = instance.registry.contentTypes
    .filter((ct) => !ct.system)
    .map((ct) => (ct.kind === 'collectionType' ? `/api/${ct.pluralName}` : `/api/${ct.singularName}`));
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Folio</title><link rel="icon" href="/favicon.ico">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1d2330}h1{margin:0}p.muted{color:#596173;margin-top:0}li{margin:.5rem 0}a{color:#2456b8}code{background:#f1f3f7;padding:0 .25rem;border-radius:3px}</style>
</head><body><main>
<h1>Folio</h1><p class="muted">A headless CMS speaking the Strapi 5 REST dialect · version ${escape(VERSION)}</p>
<ul>${links.map((l) => `<li><a href="${escape(l.href)}">${escape(l.title)}</a>: ${escape(l.text)}</li>`).join('')}</ul>
<p>Content routes: ${types.map((t) => `<code>${escape(t)}</code>`).join(', ')}</p>
</main></body></html>
`;
  const icon = favicon();
  return new Elysia({ name: 'home' })
    .get('/', ({ request }) => {
      const accept = request.headers.get('accept') ?? '';
      if (accept.includes('application/json') && !accept.includes('text/html')) {
        return json({ name: 'Folio', version: VERSION, links: Object.fromEntries(links.map((l) => [l.rel, l.href])), contentRoutes: types });
      }
      return sized(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP, 'cache-control': 'no-cache' } });
    })
    .get('/favicon.ico', () => sized(icon, { headers: { 'content-type': 'image/x-icon', 'cache-control': 'public, max-age=86400' } }));
}
