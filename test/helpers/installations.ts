/**
 * Scratch installations for CLI tests that move data between them (export, import, backup,
 * restore): a temp data dir, and on PostgreSQL (FOLIO_TEST_DATABASE_URL) a database of its own.
 * Calling `scratchInstallations` registers the clean-up: spawned processes after each test,
 * databases and temp dirs after the file.
 */
import { afterAll, afterEach } from 'bun:test';
import { join } from 'node:path';
import { createDatabase, dropDatabases } from './postgres';
import { killSpawned, removeTempDirs, tempDir, type CliOptions } from './spawn';

export const ADMIN_URL = process.env.FOLIO_TEST_DATABASE_URL;

export interface ScratchOptions {
  /** Prefix of the temp dirs and the PostgreSQL databases (`folio_export`…). */
  name: string;
  /** The data dir does not exist yet (a command must create it); by default it is an empty dir. */
  absentDataDir?: boolean;
}

export function scratchInstallations({ name, absentDataDir = false }: ScratchOptions) {
  const databases: string[] = [];
  afterEach(killSpawned);
  afterAll(async () => {
    if (ADMIN_URL) await dropDatabases(ADMIN_URL, databases);
    removeTempDirs();
  }, 60_000);
  const dataDir = () => {
    const dir = tempDir(`${name.replace(/_/g, '-')}-`);
    return absentDataDir ? join(dir, 'data') : dir;
  };
  const sqlite = (): CliOptions => ({ data: dataDir() });
  const postgres = async (): Promise<CliOptions> => {
    const database = await createDatabase(ADMIN_URL!, name);
    databases.push(database);
    return { data: dataDir(), database };
  };
  /** An installation on the engine under test. */
  const installation = (): Promise<CliOptions> => (ADMIN_URL ? postgres() : Promise.resolve(sqlite()));
  return { sqlite, postgres, installation };
}
