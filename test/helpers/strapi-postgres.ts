/**
 * A Strapi 5 database on PostgreSQL made from the peer's SQLite one, table by table (the peer
 * has no `pg` driver to run on PostgreSQL itself): the column types Strapi gives PostgreSQL
 * (timestamp(6), jsonb, boolean, date, double precision, bigint, integer, varchar, text)
 * and the same rows, in a schema of the caller's choosing.
 */
import { Database as BunDatabase } from 'bun:sqlite';
import { SQL } from 'bun';

/** SQLite's declared type (as Strapi's knex writes it) → the PostgreSQL type Strapi uses. */
function pgType(declared: string): string {
  const type = declared.toLowerCase();
  if (type === 'integer') return 'integer';
  if (type === 'bigint') return 'bigint';
  if (type.startsWith('varchar')) return type;
  if (type === 'text') return 'text';
  if (type === 'datetime') return 'timestamp(6)';
  if (type === 'json') return 'jsonb';
  if (type === 'boolean') return 'boolean';
  if (type === 'date') return 'date';
  if (type === 'time') return 'time';
  // float, decimal and the untyped order columns.
  return 'double precision';
}

function pgValue(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'timestamp(6)') return typeof value === 'number' ? new Date(value).toISOString() : value;
  if (type === 'date') return typeof value === 'number' ? new Date(value).toISOString().slice(0, 10) : value;
  if (type === 'boolean') return value === 1 || value === true || value === '1' || value === 'true';
  return value;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Copies every table of the SQLite file into `schema` of the PostgreSQL database at `url`. */
export async function copyStrapiToPostgres(sqliteFile: string, url: string, schema: string): Promise<void> {
  const db = new BunDatabase(sqliteFile, { readonly: true });
  const sql = new SQL(url, { max: 1 });
  try {
    await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`);
    const tables = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all();
    for (const { name } of tables) {
      const columns = db
        .query<{ name: string; type: string }, []>(`PRAGMA table_info(${quote(name)})`)
        .all()
        .map((c) => ({ name: c.name, type: pgType(c.type) }));
      const target = `${quote(schema)}.${quote(name)}`;
      await sql.unsafe(`CREATE TABLE ${target} (${columns.map((c) => `${quote(c.name)} ${c.type}${c.name === 'id' ? ' PRIMARY KEY' : ''}`).join(', ')})`);
      const list = columns.map((c) => quote(c.name)).join(', ');
      const casts = columns.map((c, i) => `$${i + 1}::${c.type}`).join(', ');
      for (const row of db.query<Record<string, unknown>, []>(`SELECT * FROM ${quote(name)}`).all()) {
        const values = columns.map((c) => {
          const value = pgValue(c.type, row[c.name]);
          // jsonb takes the text SQLite holds; Bun would send an object as JSON itself, a string as a JSON string.
          return c.type === 'jsonb' && value !== null && typeof value !== 'string' ? JSON.stringify(value) : value;
        });
        await sql.unsafe(`INSERT INTO ${target} (${list}) VALUES (${casts})`, values as never[]);
      }
    }
  } finally {
    await sql.close();
    db.close();
  }
}
