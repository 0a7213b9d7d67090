/**
 * `plugin::users-permissions.user` in project code: `strapi.db.query(uid)`, `strapi.query(uid)`,
 * `strapi.documents(uid)` and (through them) `strapi.entityService` on the users type, as a
 * moved project's `updateMe` or `afterCreate` calls them. Folio's users are kept by their own
 * service (auth/users.ts: password hashing, unique email and username, the role, sessions ended
 * by a new password), so every read and write here goes through it:
 *   reads   `users.list` with Strapi's params (query-engine `where`/`select`/`orderBy`/
 *           `offset`/`limit`, or document-service `filters`/`fields`/`sort`/`start`/`limit`),
 *           `populate` of the role and of the user extension's relations as /api/users has them
 *   writes  create → `users.create` (the password hashed, as the user service's `add` does),
 *           update → `users.update`, delete → `users.delete`; the Many forms one user at a time
 * Private attributes (password, codes) are never answered (Strapi's query engine returns them).
 */
import { populateUserRelations, splitRole } from '../auth/user-populate';
import type { Instance } from '../instance';
import type { Row } from '../query/row-reader';
import { PROJECT_ACTOR } from './documents';
import { ApplicationError } from './strapi-errors';

type Params = Record<string, any>;

const isEmpty = (v: unknown) => v === undefined || v === null || (typeof v === 'object' && Object.keys(v as object).length === 0);

export function projectUsers(instance: Instance) {
  const { users, registry } = instance;

  /** Users matching document-service params, with the populate they ask for. */
  async function list(params: Params): Promise<Row[]> {
    const raw: Params = {};
    if (!isEmpty(params.filters)) raw.filters = params.filters;
    if (!isEmpty(params.sort)) raw.sort = params.sort;
    if (Array.isArray(params.fields) || typeof params.fields === 'string') raw.fields = params.fields;
    for (const key of ['start', 'limit', 'page', 'pageSize'])
      if (params[key] !== undefined && params[key] !== null && params[key] !== -1) raw[key] = params[key];
    const listed = (await users.list(raw, registry)) as Row[];
    return populated(listed, params.populate);
  }

  /** The role (a role of the users table, not an attribute) and the extension's relations, read for all rows at once. */
  async function populated(rows: Row[], populate: unknown): Promise<Row[]> {
    if (rows.length === 0 || isEmpty(populate)) return rows;
    const { role, rest } = splitRole(populate);
    const roles = role ? await users.rolesOf(rows.map((r) => r.id as number)) : undefined;
    const out = roles ? rows.map((r) => ({ ...r, role: roles.get(r.id as number) ?? null })) : rows;
    if (rest !== undefined) await populateUserRelations(instance.db, registry, out, rest, () => true, await instance.locales.defaultCode());
    return out;
  }

  /** Query-engine params as document-service params (where → filters, select → fields, orderBy → sort, offset → start). */
  const fromQuery = (p: Params): Params => ({
    filters: p.where ?? p.filters,
    fields: Array.isArray(p.select) ? p.select.filter((f: string) => f !== 'id' && f !== 'documentId') : p.select,
    sort: p.orderBy ?? p.sort,
    start: p.offset ?? p.start,
    limit: p.limit,
    populate: p.populate,
  });
  /** Rows shaped as `select` asks: only the columns named, beside what populate added (as Strapi's query engine answers). */
  const selected = (rows: Row[], select: unknown) => {
    if (!Array.isArray(select)) return rows;
    const keep = new Set<string>(select as string[]);
    return rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k, v]) => keep.has(k) || (v !== null && typeof v === 'object'))));
  };
  const ids = async (where: unknown): Promise<number[]> => (await list({ filters: where })).map((r) => r.id as number);
  /** One user as document-service `fields` and `populate` shape it. */
  const one = async (id: number, p: Params) => (await list({ fields: p.fields, populate: p.populate, filters: { id } }))[0] ?? null;
  /** One user as the query engine's `select` and `populate` shape it. */
  const row = async (id: number, p: Params) => {
    const found = await one(id, fromQuery(p));
    return found && selected([found], p.select)[0]!;
  };

  /** `strapi.db.query('plugin::users-permissions.user')`. */
  const query = {
    findMany: async (p: Params = {}) => selected(await list(fromQuery(p)), p.select),
    findOne: async (p: Params = {}) => selected(await list({ ...fromQuery(p), limit: 1 }), p.select)[0] ?? null,
    count: (p: Params = {}) => users.count(isEmpty(p.where ?? p.filters) ? undefined : (p.where ?? p.filters), registry),
    create: async (p: Params = {}) => {
      if (!p.data || typeof p.data !== 'object') throw new ApplicationError('Create expects a data object');
      const user = await users.create(p.data, PROJECT_ACTOR);
      return row(user.id, p);
    },
    createMany: async (p: Params = {}) => {
      const inputs = Array.isArray(p.data) ? p.data : [];
      const created = [];
      for (const data of inputs) created.push((await users.create(data, PROJECT_ACTOR)).id);
      return { count: created.length, ids: created };
    },
    update: async (p: Params = {}) => {
      const [id] = await ids(p.where);
      if (id === undefined) return null;
      await users.update(id, p.data ?? {}, PROJECT_ACTOR);
      return row(id, p);
    },
    updateMany: async (p: Params = {}) => {
      const matched = await ids(p.where);
      for (const id of matched) await users.update(id, p.data ?? {}, PROJECT_ACTOR);
      return { count: matched.length };
    },
    delete: async (p: Params = {}) => {
      const [id] = await ids(p.where);
      if (id === undefined) return null;
      const deleted = await row(id, p);
      await users.delete(id, PROJECT_ACTOR);
      return deleted;
    },
    deleteMany: async (p: Params = {}) => {
      const matched = await ids(p.where);
      for (const id of matched) await users.delete(id, PROJECT_ACTOR);
      return { count: matched.length };
    },
  };

  const byDocumentId = async (documentId: unknown) => (typeof documentId === 'string' ? (await ids({ documentId }))[0] : undefined);
  const noDraftAndPublish = () => {
    throw new ApplicationError('plugin::users-permissions.user has no draft and publish');
  };
  /** `strapi.documents('plugin::users-permissions.user')`. */
  const documents = {
    findMany: (p: Params = {}) => list(p),
    findFirst: async (p: Params = {}) => (await list({ ...p, limit: 1 }))[0] ?? null,
    findOne: async (p: Params = {}) =>
      typeof p.documentId === 'string' ? ((await list({ ...p, filters: { documentId: p.documentId }, limit: 1 }))[0] ?? null) : null,
    count: (p: Params = {}) => users.count(isEmpty(p.filters) ? undefined : p.filters, registry),
    create: async (p: Params = {}) => {
      const user = await users.create(p.data ?? {}, PROJECT_ACTOR);
      return one(user.id, p);
    },
    update: async (p: Params = {}) => {
      const id = await byDocumentId(p.documentId);
      if (id === undefined) return null;
      await users.update(id, p.data ?? {}, PROJECT_ACTOR);
      return one(id, p);
    },
    delete: async (p: Params = {}) => {
      const id = await byDocumentId(p.documentId);
      if (id === undefined) return { documentId: null, entries: [] };
      const deleted = await one(id, p);
      await users.delete(id, PROJECT_ACTOR);
      return { documentId: p.documentId, entries: [deleted] };
    },
    publish: noDraftAndPublish,
    unpublish: noDraftAndPublish,
    discardDraft: noDraftAndPublish,
  };
  return { query, documents };
}
