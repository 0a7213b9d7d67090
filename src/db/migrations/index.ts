/**
 * System migrations, embedded in the binary as text imports so `dist/folio` needs no SQL
 * files beside it. Order matters; never edit a migration that has shipped, add a new one.
 */
import sqlite0001 from './sqlite/0001_system.sql' with { type: 'text' };

export interface Migration {
  name: string;
  sql: string;
}

export const sqliteMigrations: readonly Migration[] = [{ name: '0001_system', sql: sqlite0001 }];
