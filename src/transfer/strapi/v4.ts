/**
 * A Strapi 4 database presented as a Strapi 5 one, so the same mapping imports it. Strapi 4
 * keeps one row per entry and locale (`published_at` null: a draft), no documentId, and names
 * its join tables in full: `<table>_<attr>_links` (order columns `<name>_order`),
 * `<table>_components` (`component_id`), `files_related_morphs`, `<table>_localizations_links`
 * between the locales of an entry. Strapi 5's own migration (5.0.0-02-document-id,
 * 5.0.0-discard-drafts) turns that into documents; this does the same in memory:
 *  - join tables take Strapi 5's names (`_lnk`, `_ord`, `_cmps`, `cmp_id`, `_mph`);
 *  - the rows an entry's localizations link share a new documentId (rows of Strapi's own
 *    types get one each);
 *  - a published row of a draft & publish type keeps its id as the published version, and a
 *    draft copy (a new id after the table's last) gets copies of its components (deeply),
 *    relation links, polymorphic links and media links; an unpublished row is the draft.
 * Names over 55 characters (which Strapi 5 shortens and Strapi 4 did not) are not translated.
 */
import type { AnyModel, ContentType, Registry } from '../../registry/types';
import { MemorySource } from './memory-source';
import { snakeCase } from './identifiers';
import type { Row, StrapiSource } from './source';

/** Strapi's own tables whose rows are documents (Strapi 5 gave each a documentId). */
const SYSTEM_MODELS = ['up_users', 'up_roles', 'up_permissions', 'i18n_locale', 'files', 'upload_folders', 'strapi_api_tokens'];

/** Whether the project's database is Strapi 4's: its content tables have no document_id. */
export function isStrapi4(source: StrapiSource, registry: Registry): boolean {
  const table = [...registry.contentTypes.map((ct) => ct.tableName), 'up_roles'].find((t) => source.has(t));
  return !!table && !source.columns(table).includes('document_id');
}

/** A new documentId, shaped as Strapi's (24 lower-case letters and digits, a letter first). */
function documentId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return [...bytes].map((b, i) => alphabet[b % (i === 0 ? 26 : 36)]).join('');
}

/** Strapi 5's name of a Strapi 4 join table and its column renames, or undefined for a table kept as it is. */
function renamed(table: string): { name: string; columns: (c: string) => string } | undefined {
  if (table.endsWith('_links')) return { name: `${table.slice(0, -'_links'.length)}_lnk`, columns: (c) => c.replace(/_order$/, '_ord') };
  if (table.endsWith('_components')) return { name: `${table.slice(0, -'_components'.length)}_cmps`, columns: (c) => (c === 'component_id' ? 'cmp_id' : c) };
  if (table.endsWith('_morphs')) return { name: `${table.slice(0, -'_morphs'.length)}_mph`, columns: (c) => c };
  return undefined;
}

export class V4Source extends MemorySource implements StrapiSource {
  readonly omissions: string[];
  private nextIds = new Map<string, number>();
  private indexes = new Map<string, Map<unknown, Row[]>>();

  private constructor(
    private readonly raw: StrapiSource,
    private readonly registry: Registry,
  ) {
    super('The Strapi 4 database');
    this.omissions = [...raw.omissions, 'a Strapi 4 database: documentIds were made, and a draft copy of every published entry (as Strapi 5 migrates)'];
  }

  get env() {
    return this.raw.env;
  }

  get schemaRoot() {
    return this.raw.schemaRoot;
  }

  get uploadsDir() {
    return this.raw.uploadsDir;
  }

  close(): void {
    this.raw.close();
  }

  static from(raw: StrapiSource, registry: Registry): V4Source {
    const v5 = new V4Source(raw, registry);
    const models = new Set([...SYSTEM_MODELS, ...registry.contentTypes.map((ct) => ct.tableName), ...registry.components.map((c) => c.tableName)]);
    for (const table of raw.tables) {
      const rename = models.has(table) ? undefined : renamed(table);
      const name = rename?.name ?? table;
      const rows = raw.rows(table).map((r) => (rename ? Object.fromEntries(Object.entries(r).map(([k, v]) => [rename.columns(k), v])) : { ...r }));
      v5.table(
        name,
        raw.columns(table).map((c) => rename?.columns(c) ?? c),
      ).push(...rows);
    }
    for (const table of SYSTEM_MODELS) if (v5.has(table)) for (const row of v5.rows(table)) row.document_id ??= documentId();
    for (const ct of registry.contentTypes) if (v5.has(ct.tableName)) v5.documents(ct);
    return v5;
  }

  /** documentIds by localization group, then a draft copy of each published row. */
  private documents(ct: ContentType): void {
    const rows = this.rows(ct.tableName);
    const singular = snakeCase(ct.singularName);
    const links = this.has(`${ct.tableName}_localizations_lnk`) ? this.rows(`${ct.tableName}_localizations_lnk`) : [];
    // Union-find over the localization links: every locale of an entry is one document.
    const parent = new Map<number, number>(rows.map((r) => [Number(r.id), Number(r.id)]));
    const root = (id: number): number => {
      let at = id;
      while (parent.has(at) && parent.get(at) !== at) at = parent.get(at)!;
      return at;
    };
    for (const l of links) {
      const a = root(Number(l[`${singular}_id`]));
      const b = root(Number(l[`inv_${singular}_id`]));
      if (parent.has(a) && parent.has(b) && a !== b) parent.set(Math.max(a, b), Math.min(a, b));
    }
    const ids = new Map<number, string>();
    for (const row of rows) {
      const group = root(Number(row.id));
      if (!ids.has(group)) ids.set(group, documentId());
      row.document_id = ids.get(group)!;
    }
    if (!ct.draftAndPublish) return;
    for (const row of rows) {
      if (row.published_at === null || row.published_at === undefined) continue;
      const copy = { ...row, id: this.nextId(ct.tableName), published_at: null };
      this.table(ct.tableName).push(copy);
      this.copyDependents(ct, Number(row.id), Number(copy.id));
    }
  }

  private nextId(table: string): number {
    let next = this.nextIds.get(table);
    if (next === undefined) next = this.rows(table).reduce((max, r) => Math.max(max, Number(r.id)), 0) + 1;
    this.nextIds.set(table, next + 1);
    return next;
  }

  /** Rows of a table whose column holds a value (indexed once; rows added later are copies, never looked up). */
  private where(table: string, column: string, value: unknown): Row[] {
    if (!this.has(table)) return [];
    const key = `${table}\0${column}`;
    let index = this.indexes.get(key);
    if (!index) {
      index = new Map();
      for (const r of this.rows(table)) index.set(String(r[column]), [...(index.get(String(r[column])) ?? []), r]);
      this.indexes.set(key, index);
    }
    return index.get(String(value)) ?? [];
  }

  private copyRows(table: string, rows: Row[], change: Row): void {
    for (const r of rows) this.table(table).push({ ...r, ...change, id: this.nextId(table) });
  }

  /** What belongs to a row, copied for its copy: relation and polymorphic links it owns, media links, components. */
  private copyDependents(model: AnyModel, from: number, to: number): void {
    const singular = snakeCase('singularName' in model ? (model as ContentType).singularName : (model as { name: string }).name);
    for (const attribute of Object.values(model.attributes)) {
      if ((attribute.kind === 'relation' || (attribute.kind === 'morph' && attribute.toMany)) && attribute.owner) {
        const table = `${model.tableName}_${snakeCase(attribute.name)}_${attribute.kind === 'relation' ? 'lnk' : 'mph'}`;
        this.copyRows(table, this.where(table, `${singular}_id`, from), { [`${singular}_id`]: to });
      }
    }
    const media = this.where('files_related_mph', 'related_id', from).filter((r) => r.related_type === model.uid);
    this.copyRows('files_related_mph', media, { related_id: to });
    const joins = `${model.tableName}_cmps`;
    for (const join of this.where(joins, 'entity_id', from)) {
      const component = this.registry.component(String(join.component_type));
      const row = component && this.where(component.tableName, 'id', join.cmp_id)[0];
      if (!component || !row) continue;
      const copy = { ...row, id: this.nextId(component.tableName) };
      this.table(component.tableName).push(copy);
      this.copyDependents(component, Number(row.id), Number(copy.id));
      this.table(joins).push({ ...join, id: this.nextId(joins), entity_id: to, cmp_id: copy.id });
    }
  }
}
