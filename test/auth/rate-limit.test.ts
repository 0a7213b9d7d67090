/**
 * The auth rate limiter: windows measured on an injected clock (no sleeping), 429 with
 * Retry-After, and the client address: the connection's peer, or with FOLIO_TRUST_PROXY
 * the right-most X-Forwarded-For entry, so clients behind one proxy get a budget each
 * while a client cannot dodge the limit by sending the header itself.
 */
import { afterAll, beforeAll, describe, expect, it, setDefaultTimeout } from 'bun:test';
import { resolveConfig } from '../../src/config';
import { FolioError } from '../../src/errors';
import { RateLimiter } from '../../src/db/store/rate-limits';
import { onPostgres, startServer, type TestServer } from '../helpers/server';

setDefaultTimeout(30_000);

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ publicAccess: false });
});
afterAll(() => server.stop());

/** The error a hit throws, or 'ok'. */
async function hit(limiter: RateLimiter, ip = '192.0.2.1', path = '/api/auth/local'): Promise<'ok' | FolioError> {
  try {
    await limiter.hit(ip, path);
    return 'ok';
  } catch (error) {
    return error as FolioError;
  }
}

describe('windows on an injected clock', () => {
  // The store the server uses on this engine: the database with PostgreSQL, memory with SQLite.
  const limiter = (max: number, windowMs: number, clock: { t: number }) =>
    new RateLimiter({ max, windowMs, shared: onPostgres ? server.instance.db : undefined, now: () => clock.t });

  it('refuses past the limit with 429 and the seconds left in the window, and counts afresh once it ends', async () => {
    const clock = { t: 1_000_000 };
    const limits = limiter(2, 60_000, clock);
    expect([await hit(limits), await hit(limits)]).toEqual(['ok', 'ok']);
    const refusal = await hit(limits);
    expect(refusal).toBeInstanceOf(FolioError);
    expect(refusal).toMatchObject({
      status: 429,
      name: 'RateLimitError',
      message: 'Too many requests, please try again later.',
      headers: { 'retry-after': '60' },
    });
    clock.t += 30_000;
    expect(await hit(limits)).toMatchObject({ status: 429, headers: { 'retry-after': '30' } });
    clock.t += 29_500;
    // Half a second left rounds up: a client that waits Retry-After seconds is never early.
    expect(await hit(limits)).toMatchObject({ status: 429, headers: { 'retry-after': '1' } });
    clock.t += 500;
    expect([await hit(limits), await hit(limits)]).toEqual(['ok', 'ok']);
    expect(await hit(limits)).toMatchObject({ status: 429, headers: { 'retry-after': '60' } });
  });

  it('keeps a budget per address and per path (trailing slash and case folded)', async () => {
    const clock = { t: 2_000_000 };
    const limits = limiter(1, 10_000, clock);
    expect(await hit(limits, '192.0.2.10', '/api/auth/local')).toBe('ok');
    expect(await hit(limits, '192.0.2.10', '/API/auth/local/')).toMatchObject({ status: 429 });
    expect(await hit(limits, '192.0.2.11', '/api/auth/local')).toBe('ok');
    expect(await hit(limits, '192.0.2.10', '/api/auth/forgot-password')).toBe('ok');
  });

  it('never asks to wait longer than a window, even when the window was opened by a hit that read the clock later', async () => {
    // Concurrent requests read the clock before they reach the store: the first to arrive may hold the later time.
    const clock = { t: 4_000_500 };
    const limits = limiter(1, 60_000, clock);
    expect(await hit(limits, '192.0.2.20')).toBe('ok');
    clock.t = 4_000_000;
    expect(await hit(limits, '192.0.2.20')).toMatchObject({ status: 429, headers: { 'retry-after': '60' } });
  });

  it('lets everything through with a limit of 0', async () => {
    const limits = limiter(0, 10_000, { t: 3_000_000 });
    for (let i = 0; i < 5; i++) expect(await hit(limits)).toBe('ok');
  });
});

describe('the client address', () => {
  // forgot-password for an unknown address: counted, cheap, and sends no mail.
  const forgot = (on: TestServer, forwardedFor?: string) =>
    on.call('POST', '/api/auth/forgot-password', {
      body: { email: 'nobody@example.com' },
      headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
    });

  it('ignores X-Forwarded-For by default: a client cannot dodge the limit by sending it', async () => {
    const limited = await startServer({ publicAccess: false, config: { authRateLimit: { max: 2, windowMs: 60_000 } } });
    try {
      expect(limited.instance.config.trustProxy).toBe(false);
      const statuses = [];
      for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) statuses.push((await forgot(limited, address)).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
      const refused = await forgot(limited);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });

  it('with trustProxy, counts each client behind the proxy by the right-most X-Forwarded-For entry', async () => {
    const limited = await startServer({ publicAccess: false, config: { trustProxy: true, authRateLimit: { max: 2, windowMs: 60_000 } } });
    try {
      expect([(await forgot(limited, '203.0.113.1')).status, (await forgot(limited, '203.0.113.1')).status]).toEqual([200, 200]);
      expect((await forgot(limited, '203.0.113.1')).status).toBe(429);
      // Another client behind the same proxy has a budget of its own.
      expect((await forgot(limited, '203.0.113.2')).status).toBe(200);
      // What a client puts left of the proxy's entry changes nothing: the proxy appended the real address.
      expect((await forgot(limited, '10.9.8.7, 203.0.113.1')).status).toBe(429);
      expect((await forgot(limited, '203.0.113.2, 198.51.100.200')).status).toBe(200);
      // Several headers count as one list, in order.
      const twoHeaders = await fetch(`${limited.url}/api/auth/forgot-password`, {
        method: 'POST',
        headers: [
          ['content-type', 'application/json'],
          ['x-forwarded-for', '198.51.100.200'],
          ['x-forwarded-for', '203.0.113.1'],
        ],
        body: JSON.stringify({ email: 'nobody@example.com' }),
      });
      expect(twoHeaders.status).toBe(429);
    } finally {
      await limited.stop();
    }
  });

  it('with trustProxy, falls back to the peer address when the right-most entry is not an IP address', async () => {
    const limited = await startServer({ publicAccess: false, config: { trustProxy: true, authRateLimit: { max: 2, windowMs: 60_000 } } });
    try {
      const statuses = [];
      for (const header of ['unknown', 'not-an-ip', `${'1'.repeat(100)}`, '']) statuses.push((await forgot(limited, header)).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
      expect((await forgot(limited, '2001:db8::1')).status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe('FOLIO_TRUST_PROXY', () => {
  const withEnv = <T>(value: string | undefined, fn: () => T): T => {
    const saved = process.env.FOLIO_TRUST_PROXY;
    if (value === undefined) delete process.env.FOLIO_TRUST_PROXY;
    else process.env.FOLIO_TRUST_PROXY = value;
    try {
      return fn();
    } finally {
      if (saved === undefined) delete process.env.FOLIO_TRUST_PROXY;
      else process.env.FOLIO_TRUST_PROXY = saved;
    }
  };

  it('is off by default, on with true or 1, off with false or 0, and any other value is an error naming it', () => {
    expect(withEnv(undefined, () => resolveConfig().trustProxy)).toBe(false);
    expect(withEnv('', () => resolveConfig().trustProxy)).toBe(false);
    expect(withEnv('true', () => resolveConfig().trustProxy)).toBe(true);
    expect(withEnv('1', () => resolveConfig().trustProxy)).toBe(true);
    expect(withEnv('false', () => resolveConfig().trustProxy)).toBe(false);
    expect(withEnv('0', () => resolveConfig().trustProxy)).toBe(false);
    expect(() => withEnv('sometimes', () => resolveConfig())).toThrow('FOLIO_TRUST_PROXY must be true or false, got "sometimes"');
  });
});
