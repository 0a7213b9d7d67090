/**
 * Which plugins of a project run, and where their server code is, as Strapi 5.54.0 decides
 * (@strapi/core loaders/plugins: getEnabledPlugins, loadPlugins):
 *
 *  - declared plugins: each entry of config/plugins, in its order. `true`/`false` or
 *    `{ enabled, resolve, config }`; a `resolve` is a path from the project's root (or a package
 *    name, resolved from the project). An entry without `enabled` is enabled only when an
 *    installed plugin of that name fills it in;
 *  - installed plugins: each dependency of the project's package.json (`dependencies`, not
 *    devDependencies) whose own package.json says `"strapi": { "kind": "plugin", "name" }`,
 *    named by `strapi.name`, enabled unless config/plugins says `enabled: false`; one whose
 *    folder a declared `resolve` already names is that declared plugin;
 *  - names must be kebab-case (Strapi refuses to start otherwise).
 *
 * Strapi's own plugins (its internal ones, and every `@strapi/*` package: users-permissions,
 * graphql, i18n, cloud, documentation…) are Folio's own where it has them (./built-in.ts) and
 * not run otherwise: their server code is Strapi's internals. The server file is package.json
 * `exports['./strapi-server']` (its `require` condition), else `strapi-server.js`; Folio also
 * takes a `strapi-server.ts`/`.cjs`/`.mjs`, `server/index` and `dist/server/index`. A plugin
 * with none (an admin-only plugin) is left out with a warning naming it (Strapi skips it
 * silently); so is a declared plugin that is neither installed nor resolved (Strapi stops).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ProjectConfig } from '../../config';
import { codeFileOf, ProjectLoadError } from '../module-host';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();

/** Plugins whose part Folio plays itself (./built-in.ts), and Strapi's internal ones Folio needs no code of. */
export const FOLIO_PLUGINS = new Set([
  'email',
  'users-permissions',
  'upload',
  'graphql',
  'i18n',
  'content-manager',
  'content-type-builder',
  'content-releases',
  'review-workflows',
]);

/** Strapi's `strings.isKebabCase`. */
const KEBAB = /^([a-z][a-z0-9]*)(-[a-z0-9]+)*$/;

/** A plugin of the project whose server code runs. */
export interface EnabledPlugin {
  name: string;
  /** Its folder. */
  dir: string;
  /** Its strapi-server file. */
  file: string;
  /** `local`: config/plugins `resolve`; `npm`: a dependency of package.json. */
  source: 'local' | 'npm';
  /** The npm package's name (npm plugins). */
  packageName?: string;
}

export interface EnabledPlugins {
  plugins: EnabledPlugin[];
  /** Plugins left out, each naming the plugin and why. */
  warnings: string[];
}

interface Candidate {
  enabled?: boolean;
  dir?: string;
  source: 'local' | 'npm';
  packageName?: string;
  pkg?: Obj;
}

const readJson = (file: string): Obj | undefined => {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8'));
    return isObj(value) ? value : undefined;
  } catch {
    return undefined;
  }
};

const checkName = (name: string) => {
  if (!KEBAB.test(name)) throw new ProjectLoadError(`Plugin name "${name}" is not in kebab (an-example-of-kebab-case)`);
};

/** The installed dependency's package.json as the project resolves it, or undefined. */
function dependencyPackage(project: ProjectConfig, dep: string): string | undefined {
  try {
    return createRequire(join(project.root, 'package.json')).resolve(join(dep, 'package.json'));
  } catch {
    return undefined;
  }
}

/** A declared `resolve`: a package the project resolves (its main file's folder, as Strapi takes it), else a folder from the root. */
function resolvedDir(project: ProjectConfig, name: string, target: string): string {
  if (!target.startsWith('.') && !isAbsolute(target)) {
    try {
      return dirname(createRequire(join(project.root, 'package.json')).resolve(target));
    } catch {
      // Strapi falls back to a folder of the project.
    }
  }
  const dir = resolve(project.root, target);
  if (!isDir(dir)) throw new ProjectLoadError(`Plugin ${name}: ${target} couldn't be resolved (config/plugins ${name}.resolve)`);
  return dir;
}

/** The plugin's server file: package.json `exports['./strapi-server']` (require condition), else strapi-server.* and Folio's other places. */
function serverFile(dir: string, pkg: Obj | undefined): string | undefined {
  const entry = isObj(pkg?.exports) ? pkg.exports['./strapi-server'] : undefined;
  const target = typeof entry === 'string' ? entry : isObj(entry) ? (entry.require ?? entry.default ?? entry.source) : undefined;
  const exported = typeof target === 'string' ? join(dir, target) : undefined;
  if (exported && existsSync(exported)) return exported;
  return codeFileOf(dir, 'strapi-server') ?? codeFileOf(join(dir, 'server'), 'index') ?? codeFileOf(join(dir, 'dist', 'server'), 'index');
}

/** The project's plugins whose server code runs, in Strapi's order (declared ones, then installed ones), and those left out. */
export function enabledPlugins(project: ProjectConfig): EnabledPlugins {
  const warnings: string[] = [];
  const declared = new Map<string, Candidate>();
  const entries = isObj(project.values.plugins) ? project.values.plugins : {};
  for (const [name, entry] of Object.entries(entries)) {
    checkName(name);
    if (typeof entry === 'boolean') {
      declared.set(name, { enabled: entry, source: 'local' });
      continue;
    }
    const candidate: Candidate = { enabled: isObj(entry) && typeof entry.enabled === 'boolean' ? entry.enabled : undefined, source: 'local' };
    if (isObj(entry) && typeof entry.resolve === 'string' && entry.resolve && !FOLIO_PLUGINS.has(name)) {
      candidate.dir = resolvedDir(project, name, entry.resolve);
      candidate.pkg = readJson(join(candidate.dir, 'package.json'));
    }
    declared.set(name, candidate);
  }
  const installed = new Map<string, Candidate>();
  const packageJson = readJson(join(project.root, 'package.json'));
  const dependencies = isObj(packageJson?.dependencies) ? Object.keys(packageJson.dependencies) : [];
  const declaredDirs = new Set([...declared.values()].map((c) => c.dir));
  for (const dep of dependencies) {
    const file = dependencyPackage(project, dep);
    const pkg = file ? readJson(file) : undefined;
    if (!file || !pkg || pkg.strapi?.kind !== 'plugin' || typeof pkg.strapi.name !== 'string') continue;
    checkName(pkg.strapi.name);
    if (dep.startsWith('@strapi/') || declaredDirs.has(dirname(file))) continue;
    installed.set(pkg.strapi.name, { enabled: true, dir: dirname(file), source: 'npm', packageName: dep, pkg });
  }
  const plugins: EnabledPlugin[] = [];
  const names = [...declared.keys(), ...[...installed.keys()].filter((n) => !declared.has(n))];
  for (const name of names) {
    if (FOLIO_PLUGINS.has(name)) continue;
    const own = declared.get(name);
    const other = installed.get(name);
    const enabled = own?.enabled ?? other?.enabled;
    if (!enabled) continue;
    const found = own?.dir ? own : other;
    if (!found?.dir) {
      warnings.push(`plugin ${name} is enabled in config/plugins but not installed (not a dependency of package.json, no resolve): it does not run`);
      continue;
    }
    const file = serverFile(found.dir, found.pkg);
    if (!file) {
      warnings.push(
        `plugin ${name} (${found.packageName ?? found.dir}) has no server code (no strapi-server file): only its admin part would run, which Folio does not serve`,
      );
      continue;
    }
    plugins.push({ name, dir: found.dir, file, source: found.source, ...(found.packageName ? { packageName: found.packageName } : {}) });
  }
  return { plugins, warnings };
}
