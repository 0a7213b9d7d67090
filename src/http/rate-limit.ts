/**
 * Whose budget an /api/auth/* request counts against (the counting itself is
 * instance.authLimiter, src/db/store/rate-limits.ts).
 */
import { isIP } from 'node:net';

// An address (IPv6 with a zone id included) is far shorter; the cap comes before isIP.
const MAX_ADDRESS_LENGTH = 64;

/**
 * The address a request's budget is counted against. The connection's peer, unless
 * `trustProxy`: then the right-most entry of X-Forwarded-For, when it is an IP address.
 *
 * Right-most, because that is the one entry the proxy in front of Folio wrote itself (the
 * peer it accepted the connection from); everything to its left came from the client and
 * can be anything, so a client that sent `X-Forwarded-For: <random>` would otherwise get a
 * fresh budget per request. This assumes exactly one proxy (the usual load balancer or
 * reverse proxy); behind a chain of them, the right-most entry is the next proxy's address
 * and its clients share one budget, as they do without the setting. Without `trustProxy`
 * the header is ignored: anyone can send it.
 */
export function clientAddress(request: Request, peer: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    // Several X-Forwarded-For headers arrive joined with ", " in the order received.
    const header = request.headers.get('x-forwarded-for') ?? '';
    const last = header.slice(header.lastIndexOf(',') + 1).trim();
    if (last.length <= MAX_ADDRESS_LENGTH && isIP(last)) return last;
  }
  return peer ?? 'unknown';
}
