/**
 * How a write to the users table runs, so project code sees it as Strapi 5 shows it: the users
 * type's lifecycle events (`strapi.db.lifecycles.subscribe({ models:
 * ['plugin::users-permissions.user'], beforeCreate, afterCreate, … })`) around the row, inside
 * a write of the document pipeline, so what a handler writes (an author made for each new user)
 * joins the user's transaction and a throwing handler rolls the whole write back, as Strapi's
 * users-permissions service (`strapi.documents(user).create`/`update`, `db.query.delete`) does.
 *
 * Checked against Strapi 5.54.0 (test/fixtures/projects/user-lifecycles-js on the peer):
 *  - a create (register, provider sign-in, POST /api/users, the admin, project code) fires
 *    beforeCreate/afterCreate with `params` `{ data, populate: ['role'], where: {} }`, `data`
 *    holding username, email, provider, password (its hash), confirmed, blocked, role (its id),
 *    createdAt, updatedAt, publishedAt and the user extension's values; what a before handler
 *    leaves in `data` is written;
 *  - an update (PUT /api/users/:id, a password changed or reset, a confirmation, a reset code
 *    asked for) fires beforeUpdate/afterUpdate with `where: { id }` and `data` holding the
 *    changed columns, updatedAt and publishedAt;
 *  - a delete fires beforeDelete/afterDelete with `params` `{ where: { id } }`, the user as it
 *    was as the result (its role not populated).
 * `result` is the user with its role populated, without its private columns (password, codes):
 * Folio's rows never carry them (Strapi's query engine returns them).
 *
 * With nothing subscribed to the users type a write is a plain transaction and builds no event.
 */
import type { Database, Queryable } from '../db/database';
import type { DocumentHooks, LifecycleEvent, RowAction, RowLifecycle } from '../documents/write/hooks';
import type { Actor, WritePipeline } from '../documents/write/context';
import type { ContentType } from '../registry/types';

/** The document service's parts a user write rides on (the composition root hands them over). */
export interface UserWriteHooks {
  pipeline: WritePipeline;
  hooks: DocumentHooks;
}

export type UserEventParams = LifecycleEvent['params'];

export class UserWrites {
  constructor(
    private db: Database,
    private model: ContentType,
    private documents?: UserWriteHooks,
  ) {}

  /** Whether a lifecycle subscriber may hear about users (only then are events built). */
  get listened(): boolean {
    return !!this.documents?.hooks.listensTo(this.model);
  }

  /**
   * Runs `fn` as one write: in the document pipeline's write when anyone listens (a handler's
   * own writes join it), else in a plain transaction.
   */
  run<T>(actor: Actor, fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (!this.documents || !this.listened) return this.db.transaction(fn);
    return this.documents.pipeline.run({ actor }, (ctx) => fn(ctx.tx));
  }

  /** Fires `before<action>` for one user row; returns its pending after (a no-op when nobody listens). */
  before(action: RowAction, params: UserEventParams): Promise<RowLifecycle> {
    if (!this.documents || !this.listened) return Promise.resolve({ params, after: async () => {} });
    return this.documents.hooks.before(action, this.model, params);
  }
}
