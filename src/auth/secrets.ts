/**
 * Per-installation secrets (API token salt, JWT secret), generated once and kept in the
 * data dir with owner-only permissions. Changing the salt invalidates every API token.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../db/database';

export interface Secrets {
  apiTokenSalt: string;
  jwtSecret: string;
}

export function loadSecrets(dataDir: string): Secrets {
  const file = join(dataDir, 'secrets.json');
  const stored: Partial<Secrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  // Generate what is neither stored nor given by the environment, and keep it for next time.
  const generated: Partial<Secrets> = {};
  if (!stored.apiTokenSalt && !process.env.FOLIO_API_TOKEN_SALT) generated.apiTokenSalt = randomBytes(32).toString('base64');
  if (!stored.jwtSecret && !process.env.FOLIO_JWT_SECRET) generated.jwtSecret = randomBytes(32).toString('base64');
  if (Object.keys(generated).length) {
    writeFileSync(file, JSON.stringify({ ...stored, ...generated }, null, 2) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return {
    apiTokenSalt: process.env.FOLIO_API_TOKEN_SALT ?? stored.apiTokenSalt ?? generated.apiTokenSalt!,
    jwtSecret: process.env.FOLIO_JWT_SECRET ?? stored.jwtSecret ?? generated.jwtSecret!,
  };
}

/**
 * The same secrets kept in the database (PostgreSQL), so every instance sharing it signs
 * and checks with the same keys. The first instance to start writes them; a race is
 * settled by the primary key and everyone reads the winner's values.
 */
export async function loadSharedSecrets(db: Database): Promise<Secrets> {
  const read = async (key: keyof Secrets, env: string | undefined): Promise<string> => {
    if (env) return env;
    await db.run('INSERT INTO folio_store ("key", "value") VALUES (?, ?) ON CONFLICT ("key") DO NOTHING', [
      key,
      randomBytes(32).toString('base64'),
    ]);
    return (await db.get<{ value: string }>('SELECT "value" FROM folio_store WHERE "key" = ?', [key]))!.value;
  };
  return {
    apiTokenSalt: await read('apiTokenSalt', process.env.FOLIO_API_TOKEN_SALT),
    jwtSecret: await read('jwtSecret', process.env.FOLIO_JWT_SECRET),
  };
}
