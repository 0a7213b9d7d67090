/**
 * Query strings the way Strapi reads them: `qs` with strictNullHandling, arrayLimit 100
 * and depth 20. `qs` is the largest per-request cost, so flat queries skip it.
 *
 * Bounded work: at most REQUEST_LIMITS.queryParameters pairs (qs's own default, which qs
 * would silently cut at; here the request is refused instead, so no condition is dropped
 * unseen), nesting past depth 20 stays one literal key (then an `Invalid key` 400), and
 * both paths are linear in the length of the query string.
 */
import qs from 'qs';
import { REQUEST_LIMITS } from '../query/limits';
import { ValidationError } from '../errors';

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

export function parseQueryString(url: string): Record<string, unknown> {
  const at = url.indexOf('?');
  if (at < 0) return {};
  const search = url.slice(at + 1);
  if (search === '') return {};
  const pairs = search.split('&').filter(Boolean);
  const max = REQUEST_LIMITS.queryParameters;
  if (pairs.length > max) {
    throw new ValidationError(`Invalid query string: at most ${max} parameters are allowed, received ${pairs.length}`, { param: 'query', limit: max });
  }
  if (search.includes('[') || /%5b/i.test(search)) {
    // Counted above; qs's own cut would also count empty pairs (`&&&`) and drop real ones.
    return qs.parse(search, { strictNullHandling: true, arrayLimit: 100, depth: 20, parameterLimit: Infinity }) as Record<string, unknown>;
  }
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? null : decode(pair.slice(eq + 1));
    const previous = out[key];
    // Appending in place: spreading the list on every repeat made a repeated key quadratic.
    if (previous === undefined) out[key] = value;
    else if (Array.isArray(previous)) previous.push(value);
    else out[key] = [previous, value];
  }
  return out;
}
