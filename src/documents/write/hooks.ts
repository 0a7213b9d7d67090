/**
 * The hook points of the document service, in Strapi 5's two forms:
 *
 *  - document middlewares (`strapi.documents.use((context, next) => …)`): wrap each call of
 *    the document service, reads and writes alike, outside its transaction. `context.params`
 *    is mutable and read by the operation once every middleware has passed it on; whatever
 *    `next()` answers comes back out through them (a middleware may change or replace it).
 *  - lifecycle subscribers (`strapi.db.lifecycles.subscribe`, a type's `lifecycles.js`):
 *    `before<Action>` / `after<Action>` around each version row a write creates, updates or
 *    deletes, inside the transaction, with Strapi's event shape (`action`, `model`, `params`,
 *    `result`, `state`) and firing rules (a create that publishes fires beforeCreate/afterCreate
 *    for the draft and again for the published row). A throw rolls the write back and its
 *    error is the answer; `state` is shared by the before and after of one row, per subscriber.
 *    Reads fire `before/afterFindMany`, `FindOne` and `Count` (aroundRead) where the caller
 *    reads through the document service's params (documents/read/hooked.ts).
 *
 * Nothing here knows a project: project code (src/project/) registers on these, as Folio's
 * own tests do. With nothing registered, an operation pays one check per hook point.
 */
import type { ContentType } from '../../registry/types';

/** The document service's methods, as Strapi names them in `context.action`. */
export type DocumentAction = 'findMany' | 'findFirst' | 'findOne' | 'count' | 'create' | 'update' | 'delete' | 'publish' | 'unpublish' | 'discardDraft';

export interface MiddlewareContext {
  uid: string;
  contentType: ContentType;
  action: DocumentAction;
  /** Strapi's document service parameters: documentId, data, status, locale, filters, fields, populate, sort, pagination… */
  params: Record<string, unknown>;
}

export type DocumentMiddleware = (context: MiddlewareContext, next: () => Promise<unknown>) => unknown;

export type LifecycleAction =
  | 'beforeCreate'
  | 'afterCreate'
  | 'beforeUpdate'
  | 'afterUpdate'
  | 'beforeDelete'
  | 'afterDelete'
  | 'beforeFindOne'
  | 'afterFindOne'
  | 'beforeFindMany'
  | 'afterFindMany'
  | 'beforeCount'
  | 'afterCount'
  | 'beforeCreateMany'
  | 'afterCreateMany'
  | 'beforeUpdateMany'
  | 'afterUpdateMany'
  | 'beforeDeleteMany'
  | 'afterDeleteMany';

export interface LifecycleEvent {
  action: LifecycleAction;
  /** The model: its uid, names, table and attributes (Strapi's `event.model`). */
  model: ContentType;
  /** `data` for creates and updates (mutable in before*: what is written is what it holds after), `where` for updates and deletes. */
  params: { data?: Record<string, unknown>; where?: Record<string, unknown>; [key: string]: unknown };
  /** after*: the row as written (or as it was, for a delete). */
  result?: unknown;
  /** Shared by the before and after of one row, for one subscriber. */
  state: Record<string, unknown>;
}

type Handler = (event: LifecycleEvent) => unknown;

/** A subscriber: handlers by name, limited to `models` (uids) when given; or one function for every event. */
export type LifecycleSubscriber = ({ models?: string[] } & Partial<Record<LifecycleAction, Handler>>) | Handler;

/** What a write row's lifecycle is about: creating, updating or deleting one version row. */
export type RowAction = 'Create' | 'Update' | 'Delete';

/** The query engine's many writes (strapi.db.query createMany/updateMany/deleteMany: ./rows.ts): one event pair per call. */
export type ManyAction = 'CreateMany' | 'UpdateMany' | 'DeleteMany';

/** What a read's lifecycle is about (Strapi fires them around the query engine's findOne, findMany and count). */
export type ReadLifecycle = 'FindOne' | 'FindMany' | 'Count';

const READ_HANDLERS: LifecycleAction[] = ['beforeFindOne', 'afterFindOne', 'beforeFindMany', 'afterFindMany', 'beforeCount', 'afterCount'];

/** The pending after* of one row (see DocumentHooks.before). */
export interface RowLifecycle {
  /** The params as the before* handlers left them. */
  params: LifecycleEvent['params'];
  after(result: unknown): Promise<void>;
}

const NO_LIFECYCLE: RowLifecycle = { params: {}, after: async () => {} };

export class DocumentHooks {
  private middlewares: DocumentMiddleware[] = [];
  private subscribers: LifecycleSubscriber[] = [];

  /** Adds a document middleware (run in the order added, the first outermost). */
  use(middleware: DocumentMiddleware): this {
    this.middlewares.push(middleware);
    return this;
  }

  /** Removes a middleware `use` added (project code reloaded in development takes its own back). */
  unuse(middleware: DocumentMiddleware): void {
    this.middlewares = this.middlewares.filter((m) => m !== middleware);
  }

  /** Adds a lifecycle subscriber; returns the way to remove it. */
  subscribe(subscriber: LifecycleSubscriber): () => void {
    this.subscribers.push(subscriber);
    return () => {
      this.subscribers = this.subscribers.filter((s) => s !== subscriber);
    };
  }

  /** Whether any middleware is registered (a read plan may then not be reused: middlewares may change it). */
  get hasMiddlewares(): boolean {
    return this.middlewares.length > 0;
  }

  /**
   * Runs `operation` with `params` through the middlewares: each may change `context.params`
   * before calling `next`, and whatever the operation answers comes back out through them.
   */
  async around<T>(
    action: DocumentAction,
    ct: ContentType,
    params: Record<string, unknown>,
    operation: (params: Record<string, unknown>) => Promise<T>,
  ): Promise<T> {
    if (this.middlewares.length === 0) return operation(params);
    const context: MiddlewareContext = { uid: ct.uid, contentType: ct, action, params };
    const chain = [...this.middlewares];
    const step = async (index: number): Promise<unknown> => {
      const middleware = chain[index];
      if (!middleware) return operation(context.params);
      return middleware(context, () => step(index + 1));
    };
    return (await step(0)) as T;
  }

  /** Whether some subscriber may hear about rows of `ct` (the operations skip building events otherwise). */
  listensTo(ct: ContentType): boolean {
    return this.subscribers.some((s) => typeof s === 'function' || !s.models || s.models.includes(ct.uid));
  }

  /**
   * Whether reads of `ct` pass through hooks: a document middleware, or a subscriber that may
   * hear its read events. Without, a read route keeps its own fast path (cached plans and answers).
   */
  readsHooked(ct: ContentType): boolean {
    if (this.middlewares.length > 0) return true;
    if (this.subscribers.length === 0) return false;
    return this.subscribers.some((s) => typeof s === 'function' || ((!s.models || s.models.includes(ct.uid)) && READ_HANDLERS.some((name) => s[name])));
  }

  /**
   * Fires `before<action>` and `after<action>` around a read: `params` are the query engine's
   * (where, select, orderBy, populate, limit, offset), which before* handlers may change; `run`
   * reads with them as they are left and its result is the after* event's.
   */
  async aroundRead<T>(
    action: ReadLifecycle,
    ct: ContentType,
    params: LifecycleEvent['params'],
    run: (params: LifecycleEvent['params']) => Promise<T>,
  ): Promise<T> {
    if (!this.listensTo(ct)) return run(params);
    const event = await this.before(action, ct, params);
    const result = await run(event.params);
    await event.after(result);
    return result;
  }

  /**
   * Fires `before<Action>` for one row and returns its pending `after<Action>`. `params` is the
   * event's (a handler may change `params.data`: the operation writes what it holds after).
   */
  async before(action: RowAction | ManyAction | ReadLifecycle, ct: ContentType, params: LifecycleEvent['params']): Promise<RowLifecycle> {
    if (!this.listensTo(ct)) return { ...NO_LIFECYCLE, params };
    const states = new Map<LifecycleSubscriber, Record<string, unknown>>();
    const fire = async (name: LifecycleAction, result?: unknown) => {
      for (const subscriber of [...this.subscribers]) {
        const handler = typeof subscriber === 'function' ? subscriber : subscriber.models && !subscriber.models.includes(ct.uid) ? undefined : subscriber[name];
        if (!handler) continue;
        let state = states.get(subscriber);
        if (!state) states.set(subscriber, (state = {}));
        const event: LifecycleEvent = { action: name, model: ct, params, state };
        if (name.startsWith('after')) event.result = result;
        await handler.call(subscriber, event);
      }
    };
    await fire(`before${action}` as LifecycleAction);
    return { params, after: (result) => fire(`after${action}` as LifecycleAction, result) };
  }
}
