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
const HEARTBEAT = utf8.encode(': heartbeat\n\n');
const CONNECTED = utf8.encode(': connected\nretry: 2000\n\n');

/**
 * The SSE frame of one event; JSON text has no raw line breaks, so `data:` is one line. Made
 * once per event however many streams send it (the hub hands every stream the same rows).
 */
const frames = new WeakMap<FeedEvent, Uint8Array>();
function frame(e: FeedEvent): Uint8Array {
  let bytes = frames.get(e);
  if (!bytes) frames.set(e, (bytes = utf8.encode(`id: ${e.id}\nevent: ${e.event}\ndata: ${e.body}\n\n`)));
  return bytes;
}

function parseTypes(raw: unknown, byPlural: Map<string, string>): Set<string> | undefined {
  if (raw === undefined) return undefined;
  const parts = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [null]));
  if (parts.includes(null)) throw new ValidationError('types is a comma-separated list of plural API ids', { param: 'types' });
  const names = (parts as string[]).map((p) => p.trim()).filter(Boolean);
  if (names.length === 0) throw new ValidationError('types names no type', { param: 'types' });
  const unknown = names.filter((n) => !byPlural.has(n));
  if (unknown.length)
    throw new ValidationError(`Unknown type "${unknown[0]}" in types (one of: ${[...byPlural.keys()].join(', ')})`, { param: 'types', unknown });
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

/**
 * What one credential may read, shared by every stream it holds open: rechecked once for all
 * of them (the hub groups subscribers by `accessKey`), its types replaced in place.
 */
interface SharedAccess {
  readable: Set<string>;
  streams: number;
  recheck(): Promise<boolean>;
}

/**
 * One open stream: a direct ReadableStream (Bun writes it to the socket as it goes, with no
 * queue of its own: ~5 KB a stream against ~12 KB for a queued one), its types and its
 * credential's shared access. Methods on the class, not closures: ten thousand idle streams
 * cost what they hold, not a dozen functions each.
 */
class FeedStream implements Subscriber {
  controller: ReadableStreamDirectController | undefined;
  /** Bytes written while the client was not taking them (Bun buffers them): past MAX_BUFFERED_BYTES it is dropped. */
  private backlog = 0;
  closed = false;
  unsubscribe: (() => void) | undefined;
  /** Its place on the heartbeat wheel. */
  slot = -1;

  constructor(
    private types: ReadonlySet<string>,
    private access: SharedAccess,
    readonly accessKey: string,
    private ended: (stream: FeedStream) => void,
  ) {}

  /** The response body (made here, so that it holds on to this stream alone, not to the request that opened it). */
  body(): ReadableStream {
    const stream = this;
    return new ReadableStream({
      type: 'direct',
      // Called once: the stream stays open until close() (the client going away cancels it).
      pull(controller) {
        stream.controller = controller;
        if (!stream.write(CONNECTED) || !stream.flush()) stream.close();
      },
      cancel() {
        stream.close();
      },
    });
  }

  accepts(e: FeedEvent): boolean {
    return this.types.has(e.uid) && this.access.readable.has(e.uid);
  }

  send(events: FeedEvent[]): boolean {
    for (const e of events) if (!this.write(frame(e))) return false;
    return this.flush();
  }

  dropped(): void {
    this.close();
  }

  /** A credential no longer valid throws (the hub then ends the stream); a revoked grant only stops its type. */
  recheck(): Promise<boolean> {
    return this.access.recheck();
  }

  /** False when the client has fallen MAX_BUFFERED_BYTES behind, or is gone. */
  write(bytes: Uint8Array): boolean {
    if (this.closed || !this.controller) return false;
    const written = this.controller.write(bytes);
    if (typeof written === 'number') return written > 0;
    this.backlog += bytes.length;
    void written.then(
      () => (this.backlog = 0),
      () => {},
    );
    return this.backlog <= MAX_BUFFERED_BYTES;
  }

  flush(): boolean {
    if (this.closed || !this.controller) return false;
    const flushed = this.controller.flush();
    if (typeof flushed !== 'number') {
      void flushed.then(
        () => (this.backlog = 0),
        () => {},
      );
    }
    return this.backlog <= MAX_BUFFERED_BYTES;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe?.();
    this.ended(this);
    try {
      this.controller?.close();
    } catch {
      // Already closed by the client going away.
    }
  }
}

/**
 * Heartbeats for every stream from one timer: the streams sit in slots and each tick beats one
 * slot, so ten thousand streams get theirs spread over the period, instead of ten thousand
 * timers (or all at once, which would hold up the requests being answered meanwhile).
 */
class HeartbeatWheel {
  private slots: Set<FeedStream>[];
  private next = 0;
  private at = 0;
  private size = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private periodMs: number,
    slots = 20,
  ) {
    this.slots = Array.from({ length: slots }, () => new Set());
  }

  add(stream: FeedStream): void {
    if (this.periodMs <= 0 || stream.closed) return;
    stream.slot = this.next++ % this.slots.length;
    this.slots[stream.slot]!.add(stream);
    if (this.size++ === 0) {
      this.timer = setInterval(() => this.tick(), this.periodMs / this.slots.length);
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  remove(stream: FeedStream): void {
    if (stream.slot < 0 || !this.slots[stream.slot]!.delete(stream)) return;
    if (--this.size === 0) clearInterval(this.timer);
  }

  private tick(): void {
    const slot = this.slots[this.at++ % this.slots.length]!;
    for (const stream of [...slot]) if (!stream.write(HEARTBEAT) || !stream.flush()) stream.close();
  }
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
  const everyType: ReadonlySet<string> = new Set(byPlural.values());
  const heartbeats = new HeartbeatWheel(config.realtimeHeartbeatMs);

  /**
   * Access shared by a credential's streams (the guard reads nothing of a request but its
   * Authorization header), kept while one of them is open; a recheck in flight is joined.
   */
  const shared = new Map<string, SharedAccess>();
  function accessFor(authorization: string, readable: Set<string>): SharedAccess {
    let access = shared.get(authorization);
    if (!access) {
      const request = new Request('http://folio.invalid/api/realtime', { headers: authorization ? { authorization } : {} });
      let pending: Promise<boolean> | undefined;
      const entry: SharedAccess = {
        readable,
        streams: 0,
        recheck: () =>
          (pending ??= readableBy(request)
            .then((types) => ((entry.readable = types), true))
            .finally(() => (pending = undefined))),
      };
      shared.set(authorization, (access = entry));
    }
    access.streams++;
    return access;
  }
  const ended = (stream: FeedStream) => {
    heartbeats.remove(stream);
    const access = shared.get(stream.accessKey);
    if (access && --access.streams === 0) shared.delete(stream.accessKey);
  };

  async function open(request: Request, server: { timeout?: (r: Request, s: number) => void } | null | undefined): Promise<Response> {
    const raw = checkParameters(parseQueryString(request.url), PARAMETERS, config.strictParams);
    const wanted = parseTypes(raw.types, byPlural);
    const after = parsePosition(request.headers.get('last-event-id'), raw.lastEventId);
    const allowed = await readableBy(request);
    if (wanted) {
      if ([...wanted].some((uid) => !allowed.has(uid))) throw new ForbiddenError();
    } else if (![...byPlural.values()].some((uid) => allowed.has(uid))) {
      throw new ForbiddenError();
    }
    const authorization = request.headers.get('authorization') ?? '';
    const stream = new FeedStream(wanted ?? everyType, accessFor(authorization, allowed), authorization, ended);
    const body = stream.body();
    try {
      stream.unsubscribe = await hub.subscribe(stream, after);
    } catch (error) {
      stream.close();
      throw error;
    }
    heartbeats.add(stream);
    // Bun closes a connection idle for its idleTimeout (10 s by default); this one is idle
    // between events by design, and the heartbeats are what keeps proxies content.
    server?.timeout?.(request, 0);
    return new Response(body, {
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
