'use strict';
/**
 * folio-cms under Node ≥ 20 (Vitest, Jest, Playwright's runner…): Folio itself runs on Bun, so
 * startFolio() here starts it in a child process — the compiled binary when the package has
 * one (dist/folio), else Bun from the package's own `bun` dependency running src/cli.ts — as
 * `folio __node-host` (src/node-host.ts), and answers the same { url, token(), seeded, stop() }
 * as under Bun. `documents` calls are made over HTTP (the REST API, with a full-access token);
 * `contentType()` and `readQuery()` answer what those calls take. There is no `instance`.
 *
 * Plain CommonJS with Node's built-ins and `qs` (a dependency of the package), so Jest's
 * require() and ESM imports (index.mjs) both load it without a transform.
 */
const { spawn } = require('node:child_process');
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');
const qs = require('qs');
const { bunExecutable } = require('./bun.cjs');

const PACKAGE = dirname(__dirname);
const READY = 'FOLIO_HOST_READY ';
const ERROR = 'FOLIO_HOST_ERROR ';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/** The command that runs Folio's host: [program, args]. */
function hostCommand(binary) {
  if (typeof binary === 'string') return [binary, ['__node-host']];
  if (binary !== false) {
    const built = join(PACKAGE, 'dist', process.platform === 'win32' ? 'folio.exe' : 'folio');
    if (existsSync(built)) return [built, ['__node-host']];
  }
  let bun;
  try {
    // Put in place when npm skipped Bun's install script (./bun.cjs).
    bun = bunExecutable();
  } catch (error) {
    throw new Error(`startFolio: found neither a Folio binary (dist/folio in the package, or the binary option) nor Bun (the package's "bun" dependency): ${error.message}`);
  }
  return [bun, [join(PACKAGE, 'src', 'cli.ts'), '__node-host']];
}

/** Starts the host, sends the options, and resolves with its ready message (or rejects with its error). */
function startHost(options) {
  const { binary, ...hostOptions } = options;
  const [program, args] = hostCommand(binary);
  const child = spawn(program, args, { cwd: process.cwd(), env: process.env, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let buffered = '';
    let settled = false;
    const settle = (fn, value) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn(value);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(reject, new Error(`startFolio: Folio did not start within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    child.on('error', (error) => settle(reject, new Error(`startFolio: could not run ${program}: ${error.message}`)));
    child.on('exit', (code, signal) => settle(reject, new Error(`startFolio: Folio exited before it started (${signal ?? `exit ${code}`})`)));
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      if (settled) {
        process.stdout.write(text);
        return;
      }
      buffered += text;
      let end;
      while (!settled && (end = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        if (line.startsWith(READY)) settle(resolve, { child, ready: JSON.parse(line.slice(READY.length)) });
        else if (line.startsWith(ERROR)) settle(reject, new Error(JSON.parse(line.slice(ERROR.length)).message));
        else process.stdout.write(`${line}\n`);
      }
      if (settled && buffered) process.stdout.write(buffered);
    });
    // The options, on one line; stdin then stays open: closing it stops the host.
    child.stdin.on('error', () => {});
    child.stdin.write(`${JSON.stringify(hostOptions)}\n`);
  });
}

/** Ends the host: stdin closed, then SIGTERM, then SIGKILL, each after a wait. */
function stopHost(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timers = [];
    child.once('exit', () => {
      for (const t of timers) clearTimeout(t);
      resolve();
    });
    child.stdin.end();
    timers.push(setTimeout(() => child.kill('SIGTERM'), STOP_TIMEOUT_MS));
    timers.push(setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS * 2));
  });
}

/** The REST client behind `documents`: JSON in and out, errors thrown as Error with the envelope's name and status. */
function restClient(url, key) {
  return async function call(method, path, query, body) {
    const search = query && Object.keys(query).length ? `?${qs.stringify(query, { encodeValuesOnly: true })}` : '';
    const headers = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}${path}${search}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    if (response.status === 404) return { status: 404, body: json };
    if (response.status >= 400) {
      const error = new Error(json && json.error ? `${json.error.name}: ${json.error.message}` : `HTTP ${response.status}`);
      error.status = response.status;
      if (json && json.error) {
        error.name = json.error.name;
        error.details = json.error.details;
      }
      throw error;
    }
    return { status: response.status, body: json };
  };
}

/** The Bun document service's methods, over the REST API. */
function documentsOver(call) {
  const one = (ct, documentId) => (ct.kind === 'collectionType' ? `/api/${ct.pluralName}/${encodeURIComponent(documentId)}` : `/api/${ct.singularName}`);
  const writeQuery = (options = {}) => ({ ...(options.status ? { status: options.status } : {}), ...(options.locale ? { locale: options.locale } : {}) });
  const written = (ct, options, res) => {
    if (res.status === 404) return null;
    const entry = res.body.data;
    const status = ct.draftAndPublish && (options.status === 'draft' || (options.status === undefined && entry.publishedAt === null)) ? 'draft' : 'published';
    return { documentId: entry.documentId, locale: entry.locale ?? '', status, entry };
  };
  const action = (name) => async (ct, documentId, options = {}) => {
    const base = ct.kind === 'collectionType' ? `/api/${ct.pluralName}/${encodeURIComponent(documentId)}` : `/api/${ct.singularName}`;
    const res = await call('POST', `${base}/actions/${name}`, options.locale ? { locale: options.locale } : undefined);
    return res.status === 404 ? null : { documentId: res.body.data.documentId, locale: res.body.data.locale ?? '', status: name === 'publish' ? 'published' : 'draft', entry: res.body.data };
  };
  return {
    async findMany(ct, query = {}) {
      const res = await call('GET', ct.kind === 'collectionType' ? `/api/${ct.pluralName}` : `/api/${ct.singularName}`, query);
      if (res.status === 404) return { data: [], pagination: undefined };
      return { data: Array.isArray(res.body.data) ? res.body.data : [res.body.data], pagination: res.body.meta && res.body.meta.pagination };
    },
    async findOne(ct, documentId, query = {}) {
      const res = await call('GET', one(ct, documentId), query);
      return res.status === 404 ? null : res.body.data;
    },
    async create(ct, data, options = {}) {
      return written(ct, options, await call('POST', `/api/${ct.pluralName}`, writeQuery(options), { data }));
    },
    async update(ct, documentId, data, options = {}) {
      return written(ct, options, await call('PUT', one(ct, documentId), writeQuery(options), { data }));
    },
    async upsertSingle(ct, data, options = {}) {
      return written(ct, options, await call('PUT', `/api/${ct.singularName}`, writeQuery(options), { data }));
    },
    /** 1 when something was deleted, 0 when there was nothing (the Bun service counts rows). */
    async delete(ct, documentId, options = {}) {
      const res = await call('DELETE', one(ct, documentId), options.locale ? { locale: options.locale } : undefined);
      return res.status === 404 ? 0 : 1;
    },
    publish: action('publish'),
    unpublish: action('unpublish'),
    discardDraft: action('discard-draft'),
  };
}

/**
 * Starts Folio in a child process. Options as under Bun (contentTypes, data, database, port,
 * host, seed, permissions, tokens, logLevel, config), all JSON; plus `binary`: the path of a
 * Folio binary to run, or false to run src/cli.ts with Bun even when dist/folio is there.
 */
async function startFolio(options) {
  if (!options || (typeof options.contentTypes !== 'string' && (typeof options.contentTypes !== 'object' || options.contentTypes === null))) {
    throw new Error('startFolio: contentTypes must be a folder or an object of schemas');
  }
  const { child, ready } = await startHost(options);
  const types = ready.contentTypes;
  let stopped;
  const contentType = (id) => {
    const found = types.find((ct) => ct.uid === id || ct.pluralName === id || (ct.kind === 'singleType' && ct.singularName === id));
    if (!found) throw new Error(`startFolio: no content type "${id}"`);
    return found;
  };
  return {
    url: ready.url,
    token(name) {
      if (!Object.prototype.hasOwnProperty.call(ready.tokens, name)) {
        throw new Error(`startFolio: no token named "${name}" (tokens: ${Object.keys(ready.tokens).join(', ') || 'none'})`);
      }
      return ready.tokens[name];
    },
    seeded: ready.seeded,
    documents: documentsOver(restClient(ready.url, ready.documentsToken)),
    contentType,
    /** REST parameters as `qs` would parse them; `documents.findMany/findOne` send them as the query string. */
    async readQuery(id, params = {}) {
      if (typeof id === 'string') contentType(id);
      return params;
    },
    stop() {
      return (stopped ??= stopHost(child));
    },
  };
}

module.exports = { startFolio };
