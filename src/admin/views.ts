/**
 * "Configure the view" (Strapi's content-manager configuration) for each content type: its
 * fields' labels, descriptions and placeholders, the entry title (main field), the list's
 * columns, default sort and page size, and the edit form's field order and widths. Stored as
 * one JSON document per type in `folio_admin_views` (db/store/admin-views.ts; carried by
 * export, import, copy and backup as any system table), checked here on the way in (a 400
 * naming the field, nothing written) and again on the way out (a name the schema lost since
 * is dropped), and applied to what `GET /admin/api/schema` says of the type.
 *
 *   GET    /admin/api/views/:uid   { data: what is stored (or {}), meta: { view: the effective view } }
 *   PUT    /admin/api/views/:uid   { data: ViewConfig }: Super Admin only; answers as GET
 *   DELETE /admin/api/views/:uid   back to the defaults (204)
 */
import { Elysia } from 'elysia';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { Instance } from '../instance';
import { deleteAdminView, listAdminViews, putAdminView } from '../db/store/admin-views';
import { readJsonBody } from '../http/body';
import { json, noContent } from '../http/respond';
import type { ContentType } from '../registry/types';
import { unstorableText } from '../text';
import type { AdminUser } from './accounts';
import type { AdminAttribute, AdminContentType, EffectiveView } from './schema';

export type { EffectiveView };

export interface FieldTexts {
  label?: string;
  description?: string;
  placeholder?: string;
}

/** What an admin configures (every key optional: an absent one keeps the default). */
export interface ViewConfig {
  mainField?: string;
  /** `field:asc` or `field:desc`. */
  defaultSort?: string;
  pageSize?: number;
  /** The list's columns, in order. */
  list?: string[];
  fields?: Record<string, FieldTexts>;
  /** The edit form's fields in order, each with its width out of 12. */
  edit?: { name: string; size: number }[];
}

export const PAGE_SIZES = [10, 20, 50, 100];
export const SIZES = [3, 4, 6, 8, 12];
const MAX_COLUMNS = 8;
const LIMITS: Record<keyof FieldTexts, number> = { label: 100, description: 300, placeholder: 100 };
/** Kinds a list cell shows as short text (and a list may sort on). */
export const LISTABLE = new Set([
  'string',
  'text',
  'email',
  'uid',
  'enumeration',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
  'timestamp',
]);
const NAMING = new Set(['string', 'uid', 'email', 'text', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'date', 'datetime', 'timestamp']);
const TIMESTAMPS = ['createdAt', 'updatedAt', 'publishedAt'];
const KEYS = new Set(['mainField', 'defaultSort', 'pageSize', 'list', 'fields', 'edit']);

const listable = (a: AdminAttribute) => LISTABLE.has(a.type);

/** Strapi's default widths: short values side by side, long text, rich text, JSON and components full width. */
export function defaultSize(a: Pick<AdminAttribute, 'type'>): number {
  if (['boolean', 'integer', 'biginteger', 'float', 'decimal', 'date', 'time', 'datetime', 'timestamp'].includes(a.type)) return 4;
  if (['blocks', 'richtext', 'json', 'component', 'dynamiczone'].includes(a.type)) return 12;
  return 6;
}

export function defaultView(ct: AdminContentType): EffectiveView {
  return {
    mainField: ct.mainField,
    defaultSort: 'updatedAt:desc',
    pageSize: 20,
    list: [
      ...ct.attributes
        .filter(listable)
        .slice(0, 4)
        .map((a) => a.name),
      'updatedAt',
    ],
    edit: ct.attributes.map((a) => ({ name: a.name, size: defaultSize(a) })),
    configured: false,
  };
}

/**
 * A configuration checked against the type. Strict (a write): every problem is a field error
 * and the whole write is refused. Lenient (a stored one read back): what no longer fits the
 * schema is dropped.
 */
export function checkView(ct: AdminContentType, raw: unknown, strict: boolean): ViewConfig {
  const errors: { path: (string | number)[]; message: string; name: 'ValidationError'; value: unknown }[] = [];
  const fail = (path: (string | number)[], message: string, value: unknown) => errors.push({ path, message, name: 'ValidationError', value });
  const out: ViewConfig = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    if (strict)
      throw new ValidationError('data must be an object', { errors: [{ path: [], message: 'data must be an object', name: 'ValidationError', value: raw }] });
    return out;
  }
  const body = raw as Record<string, unknown>;
  const names = new Map(ct.attributes.map((a) => [a.name, a]));
  const sortable = new Set([...ct.attributes.filter(listable).map((a) => a.name), ...TIMESTAMPS.filter((t) => t !== 'publishedAt' || ct.draftAndPublish)]);
  for (const key of Object.keys(body)) if (!KEYS.has(key)) fail([key], `Invalid key ${key}`, body[key]);

  if (body.mainField !== undefined && body.mainField !== null) {
    const a = typeof body.mainField === 'string' ? names.get(body.mainField) : undefined;
    if (a && NAMING.has(a.type)) out.mainField = a.name;
    else fail(['mainField'], 'The entry title must be a text or number field of the type', body.mainField);
  }
  if (body.defaultSort !== undefined && body.defaultSort !== null) {
    const [field, order, ...rest] = typeof body.defaultSort === 'string' ? body.defaultSort.split(':') : [];
    if (field && sortable.has(field) && (order === 'asc' || order === 'desc') && rest.length === 0) out.defaultSort = `${field}:${order}`;
    else fail(['defaultSort'], 'The default sort must be field:asc or field:desc, on a field the list can sort by', body.defaultSort);
  }
  if (body.pageSize !== undefined && body.pageSize !== null) {
    if (typeof body.pageSize === 'number' && PAGE_SIZES.includes(body.pageSize)) out.pageSize = body.pageSize;
    else fail(['pageSize'], `The page size must be one of ${PAGE_SIZES.join(', ')}`, body.pageSize);
  }
  if (body.list !== undefined && body.list !== null) {
    const list = body.list;
    if (!Array.isArray(list) || list.length === 0 || list.length > MAX_COLUMNS) fail(['list'], `The list shows 1 to ${MAX_COLUMNS} columns`, list);
    else {
      const seen = new Set<string>();
      list.forEach((name, i) => {
        if (typeof name !== 'string' || !sortable.has(name) || seen.has(name))
          fail(['list', i], 'Each column must be a different field the list can show', name);
        else seen.add(name);
      });
      const kept = [...seen];
      if (kept.length) out.list = kept;
    }
  }
  if (body.fields !== undefined && body.fields !== null) {
    const fields = body.fields;
    if (typeof fields !== 'object' || Array.isArray(fields)) fail(['fields'], 'fields must map field names to their texts', fields);
    else {
      out.fields = {};
      for (const [name, texts] of Object.entries(fields as Record<string, unknown>)) {
        if (!names.has(name)) {
          fail(['fields', name], `No field ${name} in this type`, texts);
          continue;
        }
        if (!texts || typeof texts !== 'object' || Array.isArray(texts)) {
          fail(['fields', name], 'Each field maps to { label, description, placeholder }', texts);
          continue;
        }
        const kept: FieldTexts = {};
        for (const [key, value] of Object.entries(texts as Record<string, unknown>)) {
          if (!Object.hasOwn(LIMITS, key)) fail(['fields', name, key], `Invalid key ${key}`, value);
          else if (value === null || value === undefined || value === '') continue;
          else if (typeof value !== 'string') fail(['fields', name, key], `The ${key} must be text`, value);
          else if (unstorableText(value)) fail(['fields', name, key], `The ${key} ${unstorableText(value)}`, value);
          else if (value.length > LIMITS[key as keyof FieldTexts])
            fail(['fields', name, key], `The ${key} must be at most ${LIMITS[key as keyof FieldTexts]} characters`, value);
          else if (value.trim()) kept[key as keyof FieldTexts] = value.trim();
        }
        if (Object.keys(kept).length) out.fields[name] = kept;
      }
    }
  }
  if (body.edit !== undefined && body.edit !== null) {
    const edit = body.edit;
    if (!Array.isArray(edit)) fail(['edit'], 'edit lists the fields in order, each { name, size }', edit);
    else {
      const seen = new Set<string>();
      out.edit = [];
      edit.forEach((item, i) => {
        const name = item && typeof item === 'object' ? (item as Record<string, unknown>).name : undefined;
        const size = item && typeof item === 'object' ? (item as Record<string, unknown>).size : undefined;
        if (typeof name !== 'string' || !names.has(name) || seen.has(name))
          return fail(['edit', i, 'name'], 'Each entry must name a different field of the type', name);
        if (typeof size !== 'number' || !SIZES.includes(size)) return fail(['edit', i, 'size'], `The width must be one of ${SIZES.join(', ')} (of 12)`, size);
        seen.add(name);
        out.edit!.push({ name, size });
      });
    }
  }
  if (strict && errors.length) throw ValidationError.fromFieldErrors(errors);
  return out;
}

/** The view the app applies: the configuration over the defaults; fields the edit order omits follow it. */
export function effectiveView(ct: AdminContentType, config: ViewConfig | undefined): EffectiveView {
  const base = defaultView(ct);
  if (!config || Object.keys(config).length === 0) return base;
  const edit = config.edit ? [...config.edit, ...base.edit.filter((e) => !config.edit!.some((c) => c.name === e.name))] : base.edit;
  return {
    mainField: config.mainField ?? base.mainField,
    defaultSort: config.defaultSort ?? base.defaultSort,
    pageSize: config.pageSize ?? base.pageSize,
    list: config.list ?? base.list,
    edit,
    configured: true,
  };
}

/** The type as the app sees it with its view applied: attributes in the edit order, with their texts and widths. */
export function withView(ct: AdminContentType, config: ViewConfig | undefined): AdminContentType & { view: EffectiveView } {
  const view = effectiveView(ct, config);
  const byName = new Map(ct.attributes.map((a) => [a.name, a]));
  const attributes: AdminAttribute[] = [];
  for (const e of view.edit) {
    const a = byName.get(e.name);
    if (a) attributes.push({ ...a, ...(config?.fields?.[e.name] ?? {}), size: e.size });
  }
  return { ...ct, mainField: view.mainField, attributes, view };
}

/** Every stored configuration, checked leniently against the current schema. */
export async function storedViews(instance: Instance, types: AdminContentType[]): Promise<Map<string, ViewConfig>> {
  const byUid = new Map(types.map((t) => [t.uid, t]));
  const out = new Map<string, ViewConfig>();
  for (const row of await listAdminViews(instance.db)) {
    const ct = byUid.get(row.uid);
    if (!ct) continue;
    try {
      out.set(row.uid, checkView(ct, JSON.parse(row.config), false));
    } catch {
      // A row that does not parse is as good as none: the defaults apply.
    }
  }
  return out;
}

/** `begin`: the content manager's gate (session, content access, CSRF on writes). */
export function adminViewRoutes(instance: Instance, begin: (request: Request) => Promise<AdminUser>, schemaOf: (ct: ContentType) => AdminContentType) {
  const typeOf = (uid: string) => {
    const ct = instance.registry.contentType(uid);
    if (!ct || ct.system) throw new NotFoundError(`No content type "${uid}"`);
    return schemaOf(ct);
  };
  const answer = async (ct: AdminContentType) => {
    const stored = (await storedViews(instance, [ct])).get(ct.uid);
    return json({ data: stored ?? {}, meta: { view: withView(ct, stored).view } });
  };
  return new Elysia({ name: 'admin:views' })
    .get('/admin/api/views/:uid', async ({ request, params }) => {
      await begin(request);
      return answer(typeOf(params.uid));
    })
    .put(
      '/admin/api/views/:uid',
      async ({ request, params }) => {
        const user = await begin(request);
        if (user.role !== 'super-admin') throw new ForbiddenError('Only a Super Admin may configure the views');
        const ct = typeOf(params.uid);
        const body = await readJsonBody(request, instance.config.bodyLimit);
        const data = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).data : undefined;
        const config = checkView(ct, data, true);
        await putAdminView(instance.db, ct.uid, JSON.stringify(config), new Date().toISOString());
        return answer(ct);
      },
      { parse: 'none' },
    )
    .delete('/admin/api/views/:uid', async ({ request, params }) => {
      const user = await begin(request);
      if (user.role !== 'super-admin') throw new ForbiddenError('Only a Super Admin may configure the views');
      const ct = typeOf(params.uid);
      await deleteAdminView(instance.db, ct.uid);
      return noContent();
    });
}
