/**
 * Where a request URL's target (path and query) starts, past the scheme and authority; -1 when
 * it has none. Request URLs are absolute (`http://host:port/path?query`): indexing beats
 * `new URL()` on the hot path, and the request log, the URL length check, ETags and the
 * answer cache all need it.
 */
export const targetStart = (url: string): number => url.indexOf('/', url.indexOf('//') + 2);
