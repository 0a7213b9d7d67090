/**
 * Per-installation secrets (API token salt, JWT secret), generated once and kept in the
 * data dir with owner-only permissions. Changing the salt invalidates every API token.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../db/database';
import { insertSecretIfAbsent, readSecret } from '../db/store/secrets';

export interface Secrets {
  apiTokenSalt: string;
  jwtSecret: string;
}

/** `given`: what the configuration sets (config.secrets); it wins over what is stored. */
export function loadSecrets(dataDir: string, given: Partial<Secrets>): Secrets {
  const file = join(dataDir, 'secrets.json');
  const stored: Partial<Secrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  // Generate what is neither stored nor given by the environment, and keep it for next time.
  const generated: Partial<Secrets> = {};
  if (!stored.apiTokenSalt && !given.apiTokenSalt) generated.apiTokenSalt = randomBytes(32).toString('base64');
  if (!stored.jwtSecret && !given.jwtSecret) generated.jwtSecret = randomBytes(32).toString('base64');
  if (Object.keys(generated).length) {
    writeFileSync(file, JSON.stringify({ ...stored, ...generated }, null, 2) + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return {
    apiTokenSalt: given.apiTokenSalt ?? stored.apiTokenSalt ?? generated.apiTokenSalt!,
    jwtSecret: given.jwtSecret ?? stored.jwtSecret ?? generated.jwtSecret!,
  };
}

/**
 * The same secrets kept in the database (PostgreSQL), so every instance sharing it signs
 * and checks with the same keys. The first instance to start writes them; a race is
 * settled by the primary key and everyone reads the winner's values.
 */
export async function loadSharedSecrets(db: Database, given: Partial<Secrets>): Promise<Secrets> {
  const read = async (key: keyof Secrets, env: string | undefined): Promise<string> => {
    if (env) return env;
    await insertSecretIfAbsent(db, key, randomBytes(32).toString('base64'));
    return (await readSecret(db, key))!;
  };
  return {
    apiTokenSalt: await read('apiTokenSalt', given.apiTokenSalt),
    jwtSecret: await read('jwtSecret', given.jwtSecret),
  };
}
