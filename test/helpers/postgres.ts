/**
 * Scratch PostgreSQL databases for tests: each test server or scenario gets an empty
 * database of its own, made and dropped through the admin URL (FOLIO_TEST_DATABASE_URL).
 */
import { SQL } from 'bun';

/** Creates an empty database named after `prefix`; returns its URL. */
export async function createDatabase(adminUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new SQL(adminUrl);
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops databases made by createDatabase, even while clients are still connected. */
export async function dropDatabases(adminUrl: string, urls: string[]): Promise<void> {
  if (urls.length === 0) return;
  const admin = new SQL(adminUrl);
  try {
    for (const url of urls) await admin.unsafe(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`).catch(() => {});
  } finally {
    await admin.close();
  }
}

/** Runs one query on a database with a short-lived client. */
export async function queryOnce<T = Record<string, unknown>>(url: string, text: string): Promise<T[]> {
  const sql = new SQL(url, { max: 1 });
  try {
    return Array.from((await sql.unsafe(text)) as Iterable<T>);
  } finally {
    await sql.close();
  }
}
