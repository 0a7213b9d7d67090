/**
 * Starts a real Folio server on 127.0.0.1 (random port) over a fresh SQLite file in a
 * temp data dir, with the example content types unless told otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolveConfig } from '../../src/config';
import { createApp } from '../../src/http/app';
import { openInstance, type Instance } from '../../src/instance';

export const EXAMPLE_CONTENT_TYPES = resolve(import.meta.dir, '../../content-types');
export const ALL_TYPES_CONTENT_TYPES = resolve(import.meta.dir, '../fixtures/all-types');

export interface TestServer {
  url: string;
  instance: Instance;
  dataDir: string;
  /** Access keys of a full-access and a read-only token. */
  tokens: { fullAccess: string; readOnly: string };
  /** fetch relative to the server, JSON in and out. */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string>; raw?: string }): Promise<{ status: number; body: any; headers: Headers }>;
  /** Stops the server and closes the database; `keepData` leaves the data dir for a restart. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  contentTypes?: string;
  dataDir?: string;
  /** Grant the public role every content action (default true), as the Strapi peer does. */
  publicAccess?: boolean;
  env?: Record<string, string>;
  bodyLimit?: number;
}

export const tempDir = (prefix = 'folio-test-') => mkdtempSync(join(tmpdir(), prefix));

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  const config = { ...resolveConfig({ data: dataDir, contentTypes: options.contentTypes ?? EXAMPLE_CONTENT_TYPES }), ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}) };
  const instance = await openInstance(config);
  if (options.publicAccess !== false) {
    const actions = instance.registry.contentTypes.flatMap((ct) =>
      (ct.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete']).map((a) => `${ct.uid}.${a}`),
    );
    await instance.roles.grant('public', [...actions, 'plugin::i18n.locales.listLocales']);
  }
  if (!(await instance.locales.exists('fr'))) await instance.locales.add('fr', 'French (fr)');
  const existing = await instance.tokens.list();
  const fullAccess = existing.length ? '' : (await instance.tokens.create('test-full', 'full-access')).accessKey;
  const readOnly = existing.length ? '' : (await instance.tokens.create('test-read', 'read-only')).accessKey;
  const app = createApp(instance).listen({ port: 0, hostname: '127.0.0.1' });
  const url = `http://127.0.0.1:${app.server!.port}`;

  return {
    url,
    instance,
    dataDir,
    tokens: { fullAccess, readOnly },
    async call(method, path, { body, headers = {}, raw } = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (raw !== undefined) init.body = raw;
      else if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const response = await fetch(url + path, init);
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    async stop({ keepData = false } = {}) {
      await app.stop(true);
      instance.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
