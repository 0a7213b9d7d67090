/**
 * System migrations, embedded in the binary as text imports so `dist/folio` needs no SQL
 * files beside it. One list per engine, same names and order. Never edit a migration that
 * has shipped; add a new one (to both lists).
 */
import pg0001 from './postgres/0001_system.sql' with { type: 'text' };
import pg0002 from './postgres/0002_upload.sql' with { type: 'text' };
import pg0003 from './postgres/0003_users.sql' with { type: 'text' };
import pg0004 from './postgres/0004_token_version.sql' with { type: 'text' };
import sqlite0001 from './sqlite/0001_system.sql' with { type: 'text' };
import sqlite0002 from './sqlite/0002_upload.sql' with { type: 'text' };
import sqlite0003 from './sqlite/0003_users.sql' with { type: 'text' };
import sqlite0004 from './sqlite/0004_token_version.sql' with { type: 'text' };

export interface Migration {
  name: string;
  sql: string;
}

export const sqliteMigrations: readonly Migration[] = [
  { name: '0001_system', sql: sqlite0001 },
  { name: '0002_upload', sql: sqlite0002 },
  { name: '0003_users', sql: sqlite0003 },
  { name: '0004_token_version', sql: sqlite0004 },
];

export const postgresMigrations: readonly Migration[] = [
  { name: '0001_system', sql: pg0001 },
  { name: '0002_upload', sql: pg0002 },
  { name: '0003_users', sql: pg0003 },
  { name: '0004_token_version', sql: pg0004 },
];
