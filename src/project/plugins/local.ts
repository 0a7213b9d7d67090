/**
 * A project's plugins and its extensions of plugins, as Strapi 5 loads them:
 *
 *  - plugins, local (config/plugins `resolve`) and npm (dependencies of package.json), as
 *    ./enabled.ts finds them: their server module is an object, or a function returning
 *    one, of register/bootstrap/destroy, config (`default`, a value or a function of
 *    `{ env }`), controllers, services, routes (`{ 'content-api': { type, routes } }`: served
 *    under `/api/<plugin>`; an array is admin routes, not served), policies, middlewares,
 *    content types (./content-types.ts);
 *  - extensions: `src/extensions/<plugin>/strapi-server.*`, a function of the plugin's server
 *    parts returning them changed (a controller or route added, a service replaced), run
 *    before the plugin registers.
 */
import { join } from 'node:path';
import type { ProjectConfig } from '../../config';
import { loadFile, ProjectLoadError } from '../module-host';
import { codeFileOf } from '../module-host';
import type { PluginParts } from './plugin';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

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
