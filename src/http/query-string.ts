/**
 * Query strings the way Strapi reads them: `qs` with strictNullHandling, arrayLimit 100
 * and depth 20. `qs` is the largest per-request cost, so flat queries skip it.
 */
import qs from 'qs';

export function parseQueryString(url: string): Record<string, unknown> {
  const at = url.indexOf('?');
  if (at < 0) return {};
  const search = url.slice(at + 1);
  if (search === '') return {};
  if (search.includes('[') || /%5b/i.test(search)) {
    return qs.parse(search, { strictNullHandling: true, arrayLimit: 100, depth: 20 }) as Record<string, unknown>;
  }
  const out: Record<string, unknown> = {};
  for (const pair of search.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? null : decode(pair.slice(eq + 1));
    const previous = out[key];
    out[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return out;
}
