/**
 * A webhook receiver for the tests: a real HTTP server on 127.0.0.1 (port 0) that records
 * every request (headers and raw body) and answers with whatever `respond` says, so a test
 * can make the first attempts fail or hold a request open.
 */
import { createHmac } from 'node:crypto';

export interface Received {
  headers: Headers;
  raw: string;
  body: any;
  /** The status the receiver answered with. */
  answered: number;
}

/** A status, or a status with headers (a redirect's Location). */
export type Answer = number | { status: number; headers?: Record<string, string> };

export interface Receiver {
  url: string;
  received: Received[];
  /** Requests that have come in, answered or not yet. */
  arrived: number;
  /** Decides each answer (default 200); may wait before answering. */
  respond: (request: Received, index: number) => Answer | Promise<Answer>;
  stop(): Promise<void>;
}

export function startReceiver(): Receiver {
  const receiver: Receiver = {
    url: '',
    received: [],
    arrived: 0,
    respond: () => 200,
    stop: async () => {
      await server.stop(true);
    },
  };
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      const raw = await request.text();
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      const entry: Received = { headers: request.headers, raw, body, answered: 0 };
      const index = receiver.arrived++;
      const answer = await receiver.respond(entry, index);
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      entry.answered = status;
      receiver.received.push(entry);
      return new Response(status >= 200 && status < 300 ? 'ok' : 'no', { status, headers });
    },
  });
  receiver.url = `http://127.0.0.1:${server.port}/hook`;
  return receiver;
}

/** Polls `check` until it holds (or throws after `ms`): no fixed sleeps. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/** Whether X-Folio-Signature is `t=<t>,v1=<HMAC-SHA256 of "<t>.<raw body>">` under `secret`. */
export function validSignature(received: Received, secret: string): boolean {
  const header = received.headers.get('x-folio-signature') ?? '';
  const match = header.match(/^t=(\d+),v1=([0-9a-f]{64})$/);
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${received.raw}`).digest('hex');
  return expected === match[2] && Math.abs(Number(match[1]) - Date.now() / 1000) < 300;
}
