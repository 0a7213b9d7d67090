/**
 * GET /api/realtime: the events webhooks receive, as Server-Sent Events (issue #16).
 *
 *   id: <outbox position>
 *   event: entry.create
 *   data: {"event":"entry.create","createdAt":"…","model":"article","uid":"api::article.article","entry":{…}}
 *
 * `?types=articles,tags` names plural API ids (`files`: media events; `releases`: releases.publish,
 * for a caller who may `find` every draft & publish type, since a release may touch any of
 * them); without it, every type the caller may `find`. The caller is authenticated as on any content route (API
 * token, user JWT, or the public role): an event is sent only when the caller may `find`
 * its type, checked again before any event committed after a change of grants, roles,
 * tokens or users reaches the stream (the settings version moves) and every 5 s (expiring
 * credentials), so a revoked grant stops its type at once and a credential no longer valid
 * closes the stream. Naming a type the caller may not
 * find is a 403, an unknown one a 400. Payloads are the outbox bodies, built without
 * private attributes. `Last-Event-ID` (or `?lastEventId=`, for clients that cannot set
 * headers; the header wins, as EventSource sends it on reconnect) resumes after that
 * position. A comment line every FOLIO_REALTIME_HEARTBEAT_MS keeps proxies from closing
 * an idle stream.
 *
 * The answer is a long-lived streamed Response: the ETag hook leaves streams alone and the
 * request log writes its line when the stream opens (bytes `-`).
 */
import { Elysia } from 'elysia';
import { ForbiddenError, MethodNotAllowedError, ValidationError } from '../../errors';
import type { FeedEvent, Subscriber } from '../../events/realtime';
import type { Instance } from '../../instance';
import { FILE_MODEL } from '../../registry/file-model';
import { RELEASE_UID } from '../../events/names';
import { checkParameters } from '../../query/parse';
import type { Identify } from '../guard';
import { parseQueryString } from '../query-string';

const PARAMETERS: ReadonlySet<string> = new Set(['types', 'lastEventId']);
/** Bytes a stream may hold unsent before its client counts as too slow and is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Outbox positions are ids: digits only, well within a double's exact range. */
const POSITION = /^\d{1,15}$/;

const utf8 = new TextEncoder();

/** The SSE frame of one event; JSON text has no raw line breaks, so `data:` is one line. */
const frame = (e: FeedEvent) => `id: ${e.id}\nevent: ${e.event}\ndata: ${e.body}\n\n`;

function parseTypes(raw: unknown, byPlural: Map<string, string>): Set<string> | undefined {
  if (raw === undefined) return undefined;
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [null]));
  if (parts.includes(null)) throw new ValidationError('types is a comma-separated list of plural API ids', { param: 'types' });
  const names = (parts as string[]).map((p) => p.trim()).filter(Boolean);
  if (names.length === 0) throw new ValidationError('types names no type', { param: 'types' });
  const unknown = names.filter((n) => !byPlural.has(n));
  if (unknown.length) throw new ValidationError(`Unknown type "${unknown[0]}" in types (one of: ${[...byPlural.keys()].join(', ')})`, { param: 'types', unknown });
  return new Set(names.map((n) => byPlural.get(n)!));
}

function parsePosition(header: string | null, query: unknown): number | undefined {
  const raw = header ?? query;
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' || !POSITION.test(raw.trim())) {
    throw new ValidationError('Last-Event-ID must be an event id the feed sent (digits)', { param: header !== null ? 'Last-Event-ID' : 'lastEventId' });
  }
  return Number(raw.trim());
}

/** `identify`: the guard's authentication and grants (src/http/guard.ts), read again at each recheck. */
export function realtimeRoutes(instance: Instance, identify: Identify) {
  const { config, registry, realtime: hub } = instance;
  // Types that have events: content types by plural API id, and media events as `files`.
  const byPlural = new Map<string, string>([...registry.contentTypes, FILE_MODEL].map((ct) => [ct.pluralName, ct.uid]));
  // A release may touch any draft & publish type: its events go to callers who may find them all.
  byPlural.set('releases', RELEASE_UID);
  const releasable = registry.contentTypes.filter((ct) => !ct.system && ct.draftAndPublish).map((ct) => ct.uid);
  const readableBy = async (request: Request) => {
    const types = new Set((await identify(request)).readableTypes());
    if (releasable.length && releasable.every((uid) => types.has(uid))) types.add(RELEASE_UID);
    return types;
  };

  async function open(request: Request, server: { timeout?: (r: Request, s: number) => void } | null | undefined): Promise<Response> {
    const raw = checkParameters(parseQueryString(request.url), PARAMETERS, config.strictParams);
    const wanted = parseTypes(raw.types, byPlural);
    const after = parsePosition(request.headers.get('last-event-id'), raw.lastEventId);
    let allowed = await readableBy(request);
    if (wanted) {
      if ([...wanted].some((uid) => !allowed.has(uid))) throw new ForbiddenError();
    } else if (![...byPlural.values()].some((uid) => allowed.has(uid))) {
      throw new ForbiddenError();
    }
    const types = wanted ?? new Set(byPlural.values());

    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let unsubscribe: (() => void) | undefined;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      unsubscribe?.();
      request.signal.removeEventListener('abort', close);
      try {
        controller.close();
      } catch {
        // Already closed or errored by the client going away.
      }
    };
    /** False when the client has fallen MAX_BUFFERED_BYTES behind. */
    const write = (text: string): boolean => {
      if (closed) return false;
      controller.enqueue(utf8.encode(text));
      return (controller.desiredSize ?? 1) > 0;
    };
    const stream = new ReadableStream<Uint8Array>(
      { start: (c) => void (controller = c), cancel: close },
      { highWaterMark: MAX_BUFFERED_BYTES, size: (chunk) => chunk?.byteLength ?? 0 },
    );
    const subscriber: Subscriber = {
      accepts: (e) => types.has(e.uid) && allowed.has(e.uid),
      send: (batch) => write(batch.map(frame).join('')),
      dropped: close,
      // A credential no longer valid throws (the hub then ends the stream); a revoked grant only stops its type.
      recheck: async () => {
        allowed = await readableBy(request);
        return true;
      },
    };
    unsubscribe = await hub.subscribe(subscriber, after);
    request.signal.addEventListener('abort', close);
    if (request.signal.aborted) close();
    // Bun closes a connection idle for its idleTimeout (10 s by default); this one is idle
    // between events by design, and the heartbeats below are what keeps proxies content.
    server?.timeout?.(request, 0);
    if (config.realtimeHeartbeatMs > 0) {
      heartbeat = setInterval(() => {
        if (!write(': heartbeat\n\n')) close();
      }, config.realtimeHeartbeatMs);
      (heartbeat as { unref?: () => void }).unref?.();
    }
    write(': connected\nretry: 2000\n\n');
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        // nginx buffers proxied answers unless told not to; an event stream must flow.
        'x-accel-buffering': 'no',
      },
    });
  }

  return new Elysia({ name: 'realtime' })
    .get('/api/realtime', ({ request, server }) => open(request, server as Parameters<typeof open>[1]), { parse: 'none' })
    .all('/api/realtime', () => {
      throw new MethodNotAllowedError(['GET']);
    });
}
