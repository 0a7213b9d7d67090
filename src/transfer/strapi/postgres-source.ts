/**
 * A Strapi project whose `.env` says `DATABASE_CLIENT=postgres`: its tables read through
 * Bun.SQL. The connection is what Strapi's generated `config/database` builds from the same
 * variables (the JS config itself is not executed): `DATABASE_URL` when set, otherwise
 * `DATABASE_HOST` (localhost), `DATABASE_PORT` (5432), `DATABASE_NAME` (strapi),
 * `DATABASE_USERNAME` (strapi), `DATABASE_PASSWORD` (strapi); `DATABASE_SCHEMA` (public) names
 * the schema and `DATABASE_SSL=true` asks for TLS.
 *
 * Every table is read up front (the mapping reads synchronously, Bun.SQL answers
 * asynchronously), except Strapi's own bookkeeping that Folio never imports (admin tables,
 * history, audit logs, sessions), which may be the largest. PostgreSQL hands back
 * timestamps and dates as Date objects: they become ISO text (dates `YYYY-MM-DD`), as the
 * SQLite source reads them.
 */
import { SQL } from 'bun';
import { MemorySource } from './memory-source';
import { projectSchemaRoot, projectUploads, StrapiImportError, type Row, type StrapiSource } from './source';

const NOT_IMPORTED = /^(admin_|strapi_history_versions$|strapi_audit_logs$|strapi_sessions$|strapi_transfer_)/;

/** The connection Strapi's generated config makes from the project's variables. */
export function connectionOf(env: Record<string, string>): { url: string; schema: string; tls: boolean; shown: string } {
  const schema = env.DATABASE_SCHEMA || 'public';
  const tls = env.DATABASE_SSL === 'true';
  let url: URL;
  if (env.DATABASE_URL) {
    try {
      url = new URL(env.DATABASE_URL);
    } catch {
      throw new StrapiImportError("the project's DATABASE_URL is not a URL");
    }
  } else {
    url = new URL('postgres://localhost');
    url.hostname = env.DATABASE_HOST || 'localhost';
    url.port = env.DATABASE_PORT || '5432';
    url.pathname = `/${encodeURIComponent(env.DATABASE_NAME || 'strapi')}`;
    url.username = encodeURIComponent(env.DATABASE_USERNAME || 'strapi');
    url.password = encodeURIComponent(env.DATABASE_PASSWORD || 'strapi');
  }
  // Named in messages without the password.
  const shown = `${url.hostname}:${url.port || 5432}${url.pathname} (schema ${schema})`;
  return { url: url.toString(), schema, tls, shown };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class PostgresSource extends MemorySource implements StrapiSource {
  readonly omissions: string[] = [];

  private constructor(
    readonly dir: string,
    readonly env: Record<string, string>,
  ) {
    super('The Strapi database');
  }

  get schemaRoot(): string {
    return projectSchemaRoot(this.dir);
  }

  get uploadsDir(): string | undefined {
    return projectUploads(this.dir);
  }

  static async open(dir: string, env: Record<string, string>): Promise<PostgresSource> {
    const source = new PostgresSource(dir, env);
    const { url, schema, tls, shown } = connectionOf(env);
    const sql = new SQL(url, { max: 1, ...(tls ? { tls: true } : {}) });
    try {
      const columns = (await sql`SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = ${schema} ORDER BY table_name, ordinal_position`) as { table_name: string; column_name: string; data_type: string }[];
      const byTable = new Map<string, { name: string; type: string }[]>();
      for (const c of columns) byTable.set(c.table_name, [...(byTable.get(c.table_name) ?? []), { name: c.column_name, type: c.data_type }]);
      if (byTable.size === 0) throw new StrapiImportError(`${dir}: the project's PostgreSQL database ${shown} has no tables`);
      for (const [table, list] of byTable) {
        if (NOT_IMPORTED.test(table)) continue;
        const dates = list.filter((c) => c.type === 'date').map((c) => c.name);
        const rows = Array.from((await sql.unsafe(`SELECT * FROM ${quote(schema)}.${quote(table)}`)) as Iterable<Row>);
        for (const row of rows) {
          for (const [key, value] of Object.entries(row)) {
            if (value instanceof Date) row[key] = dates.includes(key) ? value.toISOString().slice(0, 10) : value.toISOString();
          }
        }
        source
          .table(
            table,
            list.map((c) => c.name),
          )
          .push(...rows);
      }
      return source;
    } catch (error) {
      if (error instanceof StrapiImportError) throw error;
      throw new StrapiImportError(`${dir}: cannot read the project's PostgreSQL database ${shown}: ${(error as Error).message}`);
    } finally {
      await sql.close();
    }
  }

  close(): void {}
}
