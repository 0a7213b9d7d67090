/**
 * An archive made by `strapi export --no-encrypt` (`.tar.gz`, or `.tar` with `--no-compress`)
 * as a StrapiSource: its entries are presented as the tables a Strapi 5 database would hold,
 * so content.ts and system.ts map them as they map a project's SQLite database.
 *
 * What the archive holds (Strapi's data-transfer file format):
 *  - `entities/*.jsonl`: `{ type, id, data }`, one line per row (per document version), the
 *    attributes by name with JSON values, components and dynamic zones nested with their row
 *    ids (`__component` naming a zone's items) → the model's table, its components' tables and
 *    the owners' `_cmps` join rows (order = position in the list);
 *  - `links/*.jsonl`: `{ kind, relation, left: { type, ref, field, pos }, right: { type, ref,
 *    field, pos } }` between row ids → `<table>_<field>_lnk` rows with Strapi's column names
 *    (`left.pos` orders the targets, `right.pos` the inverse side); media are the file's
 *    morph links (`plugin::upload.file.related`) → `files_related_mph`;
 *  - `schemas/*.jsonl`: the compiled models (written back as `src/`, archive-schemas.ts);
 *  - `configuration/*.jsonl`: core-store settings (the default locale) → `strapi_core_store_settings`;
 *  - `assets/uploads/<hash><ext>`: the files and their formats, flat as the local provider keeps them.
 * What it does not hold: admin users, API tokens and transfer tokens (Strapi exports no
 * `admin::` type) and the project's `.env` secrets (API_TOKEN_SALT, JWT_SECRET).
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { ArchiveError, ENTRY_LIMITS, entryLines, entryText, looksLikeArchive, readArchive } from '../archive';
import { undoOnInterrupt } from '../interrupt';
import { writeArchiveSchemas, type ArchiveSchema } from './archive-schemas';
import { columnName, componentsTable, linkColumns, linkTable, MORPH_TO_ONE, morphColumns, morphTable, tableName } from './identifiers';
import { MemorySource } from './memory-source';
import { StrapiImportError, type Row, type StrapiSource } from './source';

interface Entity {
  type: string;
  id: number;
  data: Record<string, unknown>;
}
interface LinkEnd {
  type: string;
  ref: number | string;
  field?: string;
  pos?: number | null;
}
interface Link {
  kind: string;
  relation: string;
  left: LinkEnd;
  right: LinkEnd;
}

/** A relation the owner side stores (Strapi's data-transfer exports exactly these as links). */
const ownsLinks = (a: Record<string, unknown>) =>
  a.type === 'relation' &&
  !a.mappedBy &&
  !a.morphBy &&
  !String(a.relation).startsWith('morph') &&
  typeof a.target === 'string' &&
  !String(a.target).startsWith('admin::');

/** The line of a `.jsonl` entry, parsed; a broken line names the entry and line. */
function parse<T>(entry: string, n: number, line: string): T {
  try {
    return JSON.parse(line) as T;
  } catch (error) {
    throw new StrapiImportError(`${entry} line ${n}: not JSON (${(error as Error).message})`);
  }
}

export class ArchiveSource extends MemorySource implements StrapiSource {
  readonly env: Record<string, string> = {};
  readonly omissions = [
    'a "strapi export" archive holds no API tokens and no admin users: create tokens with "folio token create"',
    "it holds none of the project's secrets (API_TOKEN_SALT, JWT_SECRET): users keep their passwords but sign in again",
  ];
  private schemas = new Map<string, ArchiveSchema>();
  /** Rows by table and id (components are unfolded once; a morphToOne link lands on its owner row). */
  private byId = new Map<string, Map<number, Row>>();

  /** The temp folder goes with an interrupted import too (interrupt.ts undoOnInterrupt). */
  private release: () => void;

  private constructor(
    readonly file: string,
    private readonly dir: string,
  ) {
    super('The archive');
    this.release = undoOnInterrupt(() => rmSync(dir, { recursive: true, force: true }));
  }

  get schemaRoot(): string {
    return join(this.dir, 'src');
  }

  get uploadsDir(): string {
    return join(this.dir, 'uploads');
  }

  /** Reads the whole archive: rows into memory, files into a temp folder (removed by close()). */
  static async open(file: string): Promise<ArchiveSource> {
    if (file.endsWith('.enc')) throw new StrapiImportError(`${file}: an encrypted export; make it with "strapi export --no-encrypt"`);
    if (!(await looksLikeArchive(file))) throw new StrapiImportError(`${file}: not a directory nor a "strapi export" archive (.tar.gz or .tar)`);
    const source = new ArchiveSource(file, mkdtempSync(join(tmpdir(), 'folio-strapi-archive-')));
    try {
      await source.read();
      return source;
    } catch (error) {
      source.close();
      if (error instanceof ArchiveError) throw new StrapiImportError(`${file}: ${error.message.replace(/Folio archive/, '"strapi export" archive')}`);
      throw error;
    }
  }

  private async read(): Promise<void> {
    const entities: Entity[] = [];
    const links: Link[] = [];
    let metadata: { strapi?: { version?: string } } | undefined;
    mkdirSync(this.uploadsDir, { recursive: true });
    for await (const entry of readArchive(this.file)) {
      const name = entry.name.replace(/^\.\//, '');
      const folder = name.split('/')[0];
      if (name === 'metadata.json') metadata = parse(name, 1, await entryText(entry, ENTRY_LIMITS.strapiMetadata));
      else if (name.endsWith('.jsonl') && ['schemas', 'entities', 'links', 'configuration'].includes(folder!)) {
        let n = 0;
        for await (const line of entryLines(entry)) {
          n++;
          if (folder === 'schemas') {
            const schema = parse<ArchiveSchema>(name, n, line);
            const valid =
              schema &&
              typeof schema.uid === 'string' &&
              typeof schema.collectionName === 'string' &&
              typeof schema.attributes === 'object' &&
              schema.attributes !== null;
            if (!valid) throw new StrapiImportError(`${name} line ${n}: not a schema (uid, collectionName and attributes expected)`);
            this.schemas.set(schema.uid, schema);
          } else if (folder === 'entities') entities.push(parse<Entity>(name, n, line));
          else if (folder === 'links') links.push(parse<Link>(name, n, line));
          else this.configuration(parse<{ type: string; value: Record<string, unknown> }>(name, n, line));
        }
      } else if (name.startsWith('assets/uploads/')) {
        // Flat names only (`<hash><ext>`): anything with a folder part could leave the temp folder.
        const file = name.slice('assets/uploads/'.length);
        if (!file || file !== basename(file) || file.startsWith('.')) throw new StrapiImportError(`${this.file}: unsafe file name "${entry.name}"`);
        await pipeline(Readable.from(entry.body), createWriteStream(join(this.uploadsDir, file)));
      }
    }
    if (!metadata) throw new StrapiImportError(`${this.file}: no metadata.json (not an archive made by "strapi export")`);
    const version = metadata.strapi?.version ?? '';
    if (!version.startsWith('5.'))
      throw new StrapiImportError(`${this.file}: made by Strapi ${version || '(unknown version)'}; only Strapi 5 exports can be imported`);
    if (this.schemas.size === 0) throw new StrapiImportError(`${this.file}: the archive holds no schemas`);
    for (const schema of this.schemas.values()) this.declare(schema);
    for (const entity of entities) this.entity(entity);
    links.forEach((link, i) => this.link(link, i + 1));
    writeArchiveSchemas(this.schemas.values(), this.schemaRoot);
  }

  private schema(uid: string, where: string): ArchiveSchema {
    const schema = this.schemas.get(uid);
    if (!schema) throw new StrapiImportError(`${where}: the archive has no schema for ${uid}`);
    return schema;
  }

  /** Every model's table and every link table exist, rows or not (as in the database). */
  private declare(schema: ArchiveSchema): void {
    this.table(tableName(schema.collectionName));
    for (const [field, attribute] of Object.entries(schema.attributes)) {
      if (field === 'localizations' || !ownsLinks(attribute)) continue;
      const target = this.schemas.get(String(attribute.target));
      if (target) {
        const [name, columns] = this.linkTable(schema, field, target);
        this.table(name, ['id', ...columns]);
      }
    }
    for (const [field, attribute] of Object.entries(schema.attributes)) {
      if (attribute.type === 'relation' && attribute.relation === 'morphToMany' && schema.modelType === 'contentType')
        this.table(...this.morphTable(schema, field));
    }
  }

  /** Strapi's table of a morphToMany and its columns. */
  private morphTable(owner: ArchiveSchema, field: string): [string, string[]] {
    const c = morphColumns(owner.info?.singularName ?? owner.modelName ?? owner.uid, field);
    return [morphTable(tableName(owner.collectionName), field), ['id', c.source, c.target, c.type, 'field', 'order']];
  }

  /** Strapi's link table for an owning relation: name, and columns source id, target id, target order, source order. */
  private linkTable(owner: ArchiveSchema, field: string, target: ArchiveSchema): [string, [string, string, string, string]] {
    // Strapi names link columns after the models' singular names (a component's: its model name).
    const singular = (s: ArchiveSchema) => s.info?.singularName ?? s.modelName ?? s.uid.split('.').pop()!;
    const c = linkColumns(singular(owner), singular(target));
    return [linkTable(tableName(owner.collectionName), field), [c.source, c.target, c.order, c.inverseOrder]];
  }

  private configuration(line: { type: string; value: Record<string, unknown> }): void {
    if (line.type !== 'core-store') return;
    const v = line.value;
    // The database keeps core-store values as JSON text; the archive has them parsed.
    this.table('strapi_core_store_settings').push({
      id: v.id,
      key: v.key,
      value: JSON.stringify(v.value),
      type: v.type,
      environment: v.environment,
      tag: v.tag,
    });
  }

  private entity(entity: Entity): void {
    const where = `entities: ${entity.type} row ${entity.id}`;
    if (typeof entity.id !== 'number' || !entity.data || typeof entity.data !== 'object') throw new StrapiImportError(`${where}: not an entity line`);
    this.row(this.schema(entity.type, where), entity.id, entity.data, where);
  }

  /** One row of a model, its nested components unfolded into their tables and join rows. */
  private row(schema: ArchiveSchema, id: number, data: Record<string, unknown>, where: string): void {
    const table = tableName(schema.collectionName);
    const seen = this.byId.get(table) ?? new Map<number, Row>();
    this.byId.set(table, seen);
    if (seen.has(id)) return;
    const row: Row = { id };
    seen.set(id, row);
    for (const [key, value] of Object.entries(data)) {
      const attribute = schema.attributes[key];
      if (attribute?.type === 'component' || attribute?.type === 'dynamiczone') {
        const items = Array.isArray(value) ? value : value ? [value] : [];
        items.forEach((item: Record<string, unknown>, order) => {
          const uid = attribute.type === 'component' ? String(attribute.component) : String(item?.__component);
          if (!item || typeof item.id !== 'number') throw new StrapiImportError(`${where}: ${key}[${order}] has no component id`);
          const { id: cmpId, __component, ...values } = item;
          this.table(componentsTable(schema.collectionName)).push({ id: 0, entity_id: id, cmp_id: cmpId, component_type: uid, field: key, order });
          this.row(this.schema(uid, `${where}: ${key}[${order}]`), cmpId as number, values, `${where}: ${key}[${order}]`);
        });
      } else row[columnName(key)] = value; // `publishDate` → `publish_date`, as Strapi names columns
    }
    this.table(table).push(row);
  }

  private link(link: Link, n: number): void {
    const where = `links line ${n}`;
    const { left, right } = link;
    if (!left || !right || typeof left.type !== 'string' || typeof right.type !== 'string') throw new StrapiImportError(`${where}: not a link line`);
    // Folio groups versions by documentId itself; admin relations (createdBy…) have no rows here.
    if (left.field === 'localizations' || left.type.startsWith('admin::') || right.type.startsWith('admin::')) return;
    if (link.kind === 'relation.morph') {
      // Media are the file's morph links; the others are polymorphic relations of content.
      if (left.type === 'plugin::upload.file' && left.field === 'related') {
        this.table('files_related_mph', ['id', 'file_id', 'related_id', 'related_type', 'field', 'order']).push({
          id: 0,
          file_id: left.ref,
          related_id: right.ref,
          related_type: right.type,
          field: right.field,
          order: right.pos ?? null,
        });
        return;
      }
      const owner = this.schema(left.type, where);
      const relation = owner.attributes[left.field ?? '']?.relation;
      if (relation === 'morphToMany') {
        const [name, [, from, to, type]] = this.morphTable(owner, left.field!);
        this.table(name).push({ id: 0, [from!]: left.ref, [to!]: right.ref, [type!]: right.type, field: right.field ?? null, order: right.pos ?? null });
      } else if (relation === 'morphToOne') {
        const row = this.byId.get(tableName(owner.collectionName))?.get(Number(left.ref));
        if (!row) throw new StrapiImportError(`${where}: ${left.type} row ${left.ref} is not among the entities`);
        Object.assign(row, { [MORPH_TO_ONE.target]: right.ref, [MORPH_TO_ONE.type]: right.type });
      }
      return;
    }
    const owner = this.schema(left.type, where);
    const attribute = owner.attributes[left.field ?? ''];
    if (!attribute || !ownsLinks(attribute)) return;
    const [name, [from, to, toOrder, fromOrder]] = this.linkTable(owner, left.field!, this.schema(right.type, where));
    this.table(name).push({ id: 0, [from]: left.ref, [to]: right.ref, [toOrder]: left.pos ?? null, [fromOrder]: right.pos ?? null });
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
    this.release();
  }
}
