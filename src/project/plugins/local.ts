/**
 * A project's own plugins and its extensions of plugins, as Strapi 5 loads them:
 *
 *  - local plugins: declared in config/plugins (`'my-plugin': { enabled: true, resolve:
 *    './src/plugins/my-plugin', config: {…} }`); their server is `strapi-server.(js|ts|…)` in
 *    that folder (or `server/index`, `dist/server/index`): an object, or a function returning
 *    one, of register/bootstrap/destroy, config (`default`, a value or a function of
 *    `{ env }`), controllers, services, routes (`{ 'content-api': { type, routes } }`: served
 *    under `/api/<plugin>`; an array is admin routes, not served), policies, middlewares;
 *  - extensions: `src/extensions/<plugin>/strapi-server.*`, a function of the plugin's server
 *    parts returning them changed (a controller or route added, a service replaced), run
 *    before the plugin registers.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProjectConfig } from '../../config';
import { loadFile, ProjectLoadError } from '../module-host';
import type { PluginParts } from './plugin';

type Obj = Record<string, any>;
const CODE = ['.ts', '.js', '.cjs', '.mjs'];
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function codeFileOf(dir: string, name: string): string | undefined {
  for (const ext of CODE) if (existsSync(join(dir, name + ext))) return join(dir, name + ext);
  return undefined;
}

export interface LocalPlugin {
  name: string;
  dir: string;
  /** Its strapi-server file. */
  file: string;
}

/** The enabled local plugins config/plugins declares (a `resolve` path), in the order it lists them. */
export function localPlugins(project: ProjectConfig): LocalPlugin[] {
  const declared = project.values.plugins;
  if (!isObj(declared)) return [];
  const out: LocalPlugin[] = [];
  for (const [name, entry] of Object.entries(declared)) {
    if (!isObj(entry) || entry.enabled === false || typeof entry.resolve !== 'string') continue;
    const dir = resolve(project.root, entry.resolve);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new ProjectLoadError(`Plugin ${name}: ${entry.resolve} is not a folder (config/plugins ${name}.resolve)`);
    const file =
      exportedServer(dir) ?? codeFileOf(dir, 'strapi-server') ?? codeFileOf(join(dir, 'server'), 'index') ?? codeFileOf(join(dir, 'dist', 'server'), 'index');
    if (!file) throw new ProjectLoadError(`Plugin ${name}: no strapi-server file in ${entry.resolve}`);
    out.push({ name, dir, file });
  }
  return out;
}

/** The file package.json's `exports['./strapi-server']` names (Strapi's plugin SDK layout), if it exists. */
function exportedServer(dir: string): string | undefined {
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) return undefined;
  try {
    const entry = JSON.parse(readFileSync(pkg, 'utf8'))?.exports?.['./strapi-server'];
    const target = typeof entry === 'string' ? entry : (entry?.require ?? entry?.source ?? entry?.default);
    return typeof target === 'string' && existsSync(join(dir, target)) ? join(dir, target) : undefined;
  } catch {
    return undefined;
  }
}

/** A plugin's server parts from its strapi-server module's export. */
export function pluginParts(exported: unknown, env: unknown): PluginParts {
  // A function export is called as Strapi's loadConfigFile calls it: with { env }.
  const value = (typeof exported === 'function' ? exported({ env }) : exported) ?? {};
  if (!isObj(value)) return {};
  const config = isObj(value.config) ? value.config.default : undefined;
  return { ...value, config: typeof config === 'function' ? config({ env }) : isObj(config) ? config : undefined } as PluginParts;
}

/** The plugin's parts after the project's extension of it, if it has one. */
export function extendPlugin(project: ProjectConfig, name: string, parts: PluginParts): PluginParts {
  const dir = join(project.src, 'extensions', name);
  const file = codeFileOf(dir, 'strapi-server');
  if (!file) return parts;
  const extension = loadFile(file, project.root);
  if (typeof extension !== 'function') throw new ProjectLoadError(`src/extensions/${name}/strapi-server must export a function of the plugin`, file);
  // The extension sees plain objects to change: controllers, services, routes.
  parts.controllers ??= {};
  parts.services ??= {};
  parts.routes ??= { 'content-api': { type: 'content-api', routes: [] } };
  return (extension(parts) ?? parts) as PluginParts;
}
