/**
 * How recent a shared marker read must be to serve the work running now. The change marker and
 * the settings version are read once and shared by everything asking in the same turn of the
 * event loop (db/sqlite.ts, db/postgres.ts): one statement answers a burst of requests. But a
 * turn is not a moment: a marker read sent before another instance's (or process's) write was
 * acknowledged can arrive in the very batch of events that holds a request sent after that
 * acknowledgement, and a request served by it could be given an answer kept from before the
 * write. So a request handler runs with the time it began (the HTTP app wraps every request),
 * and a shared read sent before that time is not reused for it: it joins the next read
 * instead, which goes out after it arrived. Work outside a request (background jobs, the
 * library) has no horizon and shares as before.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const horizon = new AsyncLocalStorage<number>();

/** Runs `fn` (a request's handling) with the time it began as its horizon. */
export function atRequestStart<T>(fn: () => T): T {
  return horizon.run(performance.now(), fn);
}

/** Whether a shared read sent at `sentAt` (performance.now()) may serve the work running now. */
export function recentEnough(sentAt: number): boolean {
  const since = horizon.getStore();
  return since === undefined || sentAt >= since;
}
