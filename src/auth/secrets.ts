/**
 * Per-installation secrets (API token salt, JWT secret), generated once and kept in the
 * data dir with owner-only permissions. Changing the salt invalidates every API token.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
