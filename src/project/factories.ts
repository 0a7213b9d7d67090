/**
 * `@strapi/strapi` `factories`: createCoreController, createCoreService and createCoreRouter,
 * shaped as Strapi 5's (core-api/): the user's object gets the base methods it lacks and the
 * base as its prototype, so `super.find(ctx)` works in its methods. The base controller's
 * actions are Strapi's (validateQuery, sanitizeQuery, the service, sanitizeOutput,
 * transformResponse); the base service's call `strapi.documents(uid)` with `status:
 * 'published'` unless given, and its pagination, as Strapi's core service does.
 */
import { checkParameters, parsePagination, READ_PARAMETERS } from '../query/parse';
import { buildReadPlan } from '../query/plan-builder';
import { checkRestrictedRelations } from '../documents/relations/restricted';
import type { ContentType } from '../registry/types';
import { ValidationError } from './strapi-errors';
import type { ProjectStrapi } from './strapi';

type Obj = Record<string, any>;
type Factory<T> = (cfg: { strapi: ProjectStrapi }) => T;

import { CAN_READ, CAN_READ_KEY } from './documents';
export { CAN_READ, CAN_READ_KEY };
/** Controllers made by createCoreController with a config of the project's own (Strapi's isCustomController). */
export const CUSTOM = Symbol('folio.customController');

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function canReadOf(ctx: Obj | undefined): ((uid: string) => boolean) | undefined {
  const fn = ctx?.state?.[CAN_READ];
  return typeof fn === 'function' ? fn : undefined;
}

/** Drops relations (and media) whose type the caller may not read; on an `auth: false` route every relation, as Strapi's sanitizer does. */
function sanitizeEntry(strapi: ProjectStrapi, model: Obj | undefined, value: unknown, canRead: (uid: string) => boolean, noRelations: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => sanitizeEntry(strapi, model, v, canRead, noRelations));
  if (!isObject(value) || !model) return value;
  const out: Obj = {};
  for (const [key, v] of Object.entries(value)) {
    // The document service's `locale: null` of a type without i18n is no attribute of it: Strapi's REST answers leave it out.
    if (key === 'locale' && v === null && model.modelType === 'contentType' && !model.localized) continue;
    const attribute = model.attributes[key];
    if (attribute?.type === 'relation') {
      if (noRelations || (attribute.target && !canRead(attribute.target))) continue;
      out[key] = sanitizeEntry(strapi, strapi.getModel(attribute.target), v, canRead, noRelations);
    } else if (attribute?.type === 'media') {
      if (noRelations) continue;
      out[key] = v;
    } else if (attribute?.type === 'component') {
      out[key] = sanitizeEntry(strapi, strapi.getModel(attribute.component), v, canRead, noRelations);
    } else if (attribute?.type === 'dynamiczone' && Array.isArray(v)) {
      out[key] = v.map((item) => sanitizeEntry(strapi, isObject(item) ? strapi.getModel(item.__component) : undefined, item, canRead, noRelations));
    } else out[key] = v;
  }
  return out;
}

function baseController(strapi: ProjectStrapi, ct: ContentType): Obj {
  const uid = ct.uid;
  const proto: Obj = {
    transformResponse(data: unknown, meta: Obj = {}) {
      if (data === null || data === undefined) return data;
      if (!isObject(data) && !Array.isArray(data)) throw new Error('Entry must be an object or an array of objects');
      return { data, meta };
    },
    async sanitizeOutput(data: unknown, ctx: Obj) {
      const canRead = canReadOf(ctx) ?? (() => true);
      return sanitizeEntry(strapi, ct, data, canRead, ctx?.state?.route?.config?.auth === false);
    },
    async sanitizeInput(data: unknown) {
      return data;
    },
    async sanitizeQuery(ctx: Obj) {
      const query: Obj = { ...(ctx.query ?? {}) };
      const canRead = canReadOf(ctx);
      if (canRead) {
        (query as any)[CAN_READ] = canRead;
        (query as any)[CAN_READ_KEY] = ctx?.state?.[CAN_READ_KEY];
      }
      return query;
    },
    async validateQuery(ctx: Obj) {
      const strict = strapi.config.get('api.rest.strictParams', true) !== false;
      const raw = checkParameters(ctx.query ?? {}, ct.kind === 'collectionType' ? READ_PARAMETERS : READ_PARAMETERS, strict);
      const { pagination, ...rest } = raw as Obj;
      if (pagination !== undefined) parsePagination(pagination, strapi.restLimits());
      buildReadPlan(strapi.registry, ct, rest, { defaultLocale: 'en', limits: strapi.restLimits(), canRead: canReadOf(ctx) });
    },
    /** Strapi's input validation: a relation to a type the caller may not find is an `Invalid key` (documents/relations/restricted.ts). */
    async validateInput(data: unknown, ctx: Obj) {
      const canRead = canReadOf(ctx);
      if (canRead && isObject(data)) checkRestrictedRelations(strapi.registry, ct, data, canRead);
    },
  };
  const body = (ctx: Obj) => {
    const { body = {} } = ctx.request ?? {};
    if (!isObject(body?.data)) throw new ValidationError('Missing "data" payload in the request body');
    return body.data;
  };
  const actions: Obj =
    ct.kind === 'collectionType'
      ? {
          async find(this: Obj, ctx: Obj) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const { results, pagination } = await strapi.service(uid).find(query);
            return this.transformResponse(await this.sanitizeOutput(results, ctx), { pagination });
          },
          async findOne(this: Obj, ctx: Obj) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const entity = await strapi.service(uid).findOne(ctx.params.id, query);
            return this.transformResponse(await this.sanitizeOutput(entity, ctx));
          },
          async create(this: Obj, ctx: Obj) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const data = body(ctx);
            await this.validateInput(data, ctx);
            const entity = await strapi.service(uid).create({ ...query, data: await this.sanitizeInput(data, ctx) });
            const out = await this.sanitizeOutput(entity, ctx);
            ctx.status = 201;
            return this.transformResponse(out);
          },
          async update(this: Obj, ctx: Obj) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const data = body(ctx);
            await this.validateInput(data, ctx);
            const entity = await strapi.service(uid).update(ctx.params.id, { ...query, data: await this.sanitizeInput(data, ctx) });
            return this.transformResponse(await this.sanitizeOutput(entity, ctx));
          },
          async delete(this: Obj, ctx: Obj) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            await strapi.service(uid).delete(ctx.params.id, query);
            ctx.status = 204;
          },
        }
      : {
          async find(this: Obj, ctx: Obj) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const entity = await strapi.service(uid).find(query);
            return this.transformResponse(await this.sanitizeOutput(entity, ctx));
          },
          async update(this: Obj, ctx: Obj) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            const data = body(ctx);
            await this.validateInput(data, ctx);
            const entity = await strapi.service(uid).createOrUpdate({ ...query, data: await this.sanitizeInput(data, ctx) });
            return this.transformResponse(await this.sanitizeOutput(entity, ctx));
          },
          async delete(this: Obj, ctx: Obj) {
            await this.validateQuery(ctx);
            const query = await this.sanitizeQuery(ctx);
            await strapi.service(uid).delete(query);
            ctx.status = 204;
          },
        };
  return Object.assign(Object.create(proto), actions);
}

function baseService(strapi: ProjectStrapi, ct: ContentType): Obj {
  const uid = ct.uid;
  const proto: Obj = {
    getFetchParams(params: Obj = {}) {
      return { status: 'published', ...params };
    },
  };
  const documents = () => strapi.documents(uid);
  const actions: Obj =
    ct.kind === 'collectionType'
      ? {
          async find(this: Obj, params: Obj = {}) {
            const { pagination: raw, ...fetchParams } = this.getFetchParams(params);
            const page = parsePagination(raw, strapi.restLimits());
            const results = await documents().findMany({ ...fetchParams, start: page.start, limit: page.limit });
            if (!page.withCount) {
              return {
                results,
                pagination:
                  page.mode === 'offset' ? { start: page.start, limit: page.limit } : { page: Math.floor(page.start / page.limit) + 1, pageSize: page.limit },
              };
            }
            const total = await documents().count({ ...fetchParams });
            const pagination =
              page.mode === 'offset'
                ? { start: page.start, limit: page.limit, total }
                : { page: Math.floor(page.start / page.limit) + 1, pageSize: page.limit, pageCount: Math.ceil(total / page.limit), total };
            return { results, pagination };
          },
          findOne(this: Obj, documentId: string, params: Obj = {}) {
            return documents().findOne({ ...this.getFetchParams(params), documentId });
          },
          create(this: Obj, params: Obj = { data: {} }) {
            return documents().create(this.getFetchParams(params));
          },
          update(this: Obj, documentId: string, params: Obj = { data: {} }) {
            return documents().update({ ...this.getFetchParams(params), documentId });
          },
          async delete(this: Obj, documentId: string, params: Obj = {}) {
            const { entries } = await documents().delete({ ...this.getFetchParams(params), documentId });
            return { deletedEntries: entries.length };
          },
        }
      : {
          async getDocumentId() {
            return strapi.singleDocumentId(ct);
          },
          find(this: Obj, params: Obj = {}) {
            return documents().findFirst(this.getFetchParams(params));
          },
          async createOrUpdate(this: Obj, params: Obj = {}) {
            const documentId = await this.getDocumentId();
            if (documentId) return documents().update({ ...this.getFetchParams(params), documentId });
            return documents().create(this.getFetchParams(params));
          },
          async delete(this: Obj, params: Obj = {}) {
            const documentId = await this.getDocumentId();
            if (!documentId) return { deletedEntries: 0 };
            const { entries } = await documents().delete({ ...this.getFetchParams(params), documentId });
            return { deletedEntries: entries.length };
          },
        };
  return Object.assign(Object.create(proto), actions);
}

/** The user's object over the base: missing methods copied, the base as prototype (`super.find(ctx)`). */
function extend(base: Obj, user: Obj): Obj {
  for (const name of Object.keys(base)) if (user[name] === undefined) user[name] = base[name];
  Object.setPrototypeOf(user, base);
  return user;
}

export function createCoreController(uid: string, cfg?: Obj | Factory<Obj>): Factory<Obj> {
  return ({ strapi }) => {
    const base = baseController(strapi, strapi.contentTypeOf(uid));
    const user = typeof cfg === 'function' ? cfg({ strapi }) : (cfg ?? {});
    const out = extend(base, user);
    if (cfg !== undefined) Object.defineProperty(out, CUSTOM, { value: true, enumerable: false });
    return out;
  };
}

export function createCoreService(uid: string, cfg?: Obj | Factory<Obj>): Factory<Obj> {
  return ({ strapi }) => {
    const base = baseService(strapi, strapi.contentTypeOf(uid));
    const user = typeof cfg === 'function' ? cfg({ strapi }) : (cfg ?? {});
    const out = extend(base, user);
    if (cfg !== undefined) Object.defineProperty(out, CUSTOM, { value: true, enumerable: false });
    return out;
  };
}

export interface CoreRouteDef {
  method: string;
  path: string;
  handler: string;
  config: Obj;
  /** The core action (find, findOne, create, update, delete) this route is. */
  core?: string;
  info?: Obj;
}

/** A core router: its routes are made when read (Strapi's getter), with `only`/`except` and `config[action]`. */
export function createCoreRouter(uid: string, cfg: Obj = {}) {
  const { prefix, config = {}, only, except, type = 'content-api' } = cfg;
  let routes: CoreRouteDef[] | undefined;
  return {
    type,
    prefix,
    [CORE_ROUTER]: uid,
    get routes(): CoreRouteDef[] {
      if (!routes) {
        const strapi = (globalThis as { strapi?: ProjectStrapi }).strapi!;
        const ct = strapi.contentTypeOf(uid);
        const defaults: Record<string, CoreRouteDef> =
          ct.kind === 'collectionType'
            ? {
                find: { method: 'GET', path: `/${ct.pluralName}`, handler: `${uid}.find`, config: {}, core: 'find' },
                findOne: { method: 'GET', path: `/${ct.pluralName}/:id`, handler: `${uid}.findOne`, config: {}, core: 'findOne' },
                create: { method: 'POST', path: `/${ct.pluralName}`, handler: `${uid}.create`, config: {}, core: 'create' },
                update: { method: 'PUT', path: `/${ct.pluralName}/:id`, handler: `${uid}.update`, config: {}, core: 'update' },
                delete: { method: 'DELETE', path: `/${ct.pluralName}/:id`, handler: `${uid}.delete`, config: {}, core: 'delete' },
              }
            : {
                find: { method: 'GET', path: `/${ct.singularName}`, handler: `${uid}.find`, config: {}, core: 'find' },
                update: { method: 'PUT', path: `/${ct.singularName}`, handler: `${uid}.update`, config: {}, core: 'update' },
                delete: { method: 'DELETE', path: `/${ct.singularName}`, handler: `${uid}.delete`, config: {}, core: 'delete' },
              };
        for (const [name, route] of Object.entries(defaults)) route.config = config[name] ?? {};
        let names = Object.keys(defaults);
        if (except) names = names.filter((n) => !except.includes(n));
        if (only) names = names.filter((n) => only.includes(n));
        routes = names.map((n) => defaults[n]!);
      }
      return routes;
    },
  };
}
export const CORE_ROUTER = Symbol('folio.coreRouter');

export const FACTORIES = { createCoreController, createCoreService, createCoreRouter };
