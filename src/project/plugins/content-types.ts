/**
 * The content types a project's plugins declare in their server code, as Strapi 5.54.0 reads
 * them (@strapi/core loaders/plugins formatContentTypes, registries/content-types):
 * `contentTypes: { 'nav-item': { schema, lifecycles, actions } }`, each keyed by its
 * `info.singularName` (another key stops start-up, as in Strapi), uid
 * `plugin::<plugin>.<singularName>`, table `collectionName` or `<plugin>_<singularName>`
 * lowercased. The project's `src/extensions/<plugin>/content-types/<name>/schema.json` is laid
 * over a type's schema (its top-level keys win), or adds a type, as Strapi's extensions do.
 *
 * The registry is built before project code runs, so each plugin's server module is loaded
 * here first (Strapi loads it before registering anything too); its `lifecycles` are
 * subscribed when the project's code loads (project/app.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ProjectConfig } from '../../config';
import { SchemaError, type PluginTypeSchema } from '../../registry/types';
import { createEnv } from '../env';
import { loadFile } from '../module-host';
import { fillStrapiModules } from '../modules';
import { enabledPlugins, type EnabledPlugin } from './enabled';
import { pluginParts } from './local';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The definitions of a plugin's `contentTypes` export by key (a function declares none, as in Strapi). */
export function contentTypeDefinitions(contentTypes: unknown): Record<string, Obj> {
  if (!isObj(contentTypes)) return {};
  return contentTypes as Record<string, Obj>;
}

/** `src/extensions/<plugin>/content-types/<name>/schema.json` files of the project, by type name. */
function extensionSchemas(project: ProjectConfig, plugin: string): Record<string, { file: string; schema: Obj }> {
  const dir = join(project.src, 'extensions', plugin, 'content-types');
  if (!existsSync(dir)) return {};
  const out: Record<string, { file: string; schema: Obj }> = {};
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name, 'schema.json');
    if (!existsSync(file)) continue;
    let schema: unknown;
    try {
      schema = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new SchemaError(relative(project.root, file), undefined, `is not valid JSON: ${(error as Error).message}`);
    }
    if (isObj(schema)) out[name] = { file: relative(project.root, file), schema };
  }
  return out;
}

/** The content types of one plugin's server parts (with the project's extension schemas), as the registry takes them. */
export function pluginTypesOf(project: ProjectConfig, plugin: EnabledPlugin, contentTypes: unknown): PluginTypeSchema[] {
  const where = relative(project.root, plugin.file);
  const definitions = contentTypeDefinitions(contentTypes);
  const extended = plugin.name === 'users-permissions' ? {} : extensionSchemas(project, plugin.name);
  const out: PluginTypeSchema[] = [];
  const names = [...Object.keys(definitions), ...Object.keys(extended).filter((n) => !(n in definitions))];
  for (const key of names) {
    const source = `plugin ${plugin.name}, content type ${key} (${extended[key] && !(key in definitions) ? extended[key].file : where})`;
    const given = definitions[key]?.schema;
    if (key in definitions && !isObj(given)) throw new SchemaError(source, undefined, 'has no "schema" object (contentTypes.<name>.schema)');
    const schema: Obj = { ...(given ?? {}), ...(extended[key]?.schema ?? {}) };
    const singularName = isObj(schema.info) ? schema.info.singularName : undefined;
    if (typeof singularName === 'string' && key !== singularName) {
      throw new SchemaError(source, undefined, `The key of the content-type should be the same as its singularName. Found ${key} and ${singularName}.`);
    }
    if (typeof singularName === 'string' && schema.collectionName === undefined) schema.collectionName = `${plugin.name}_${singularName}`.toLowerCase();
    out.push({ uid: `plugin::${plugin.name}.${key}`, plugin: plugin.name, source, schema });
  }
  return out;
}

/** Every enabled plugin's content types (each plugin's server module loaded; a module that throws stops start-up naming its file). */
export function pluginTypeSchemas(project: ProjectConfig): PluginTypeSchema[] {
  fillStrapiModules(project.vars);
  const env = createEnv(project.vars);
  const out: PluginTypeSchema[] = [];
  for (const plugin of enabledPlugins(project).plugins) {
    const parts = pluginParts(loadFile(plugin.file, project.root), env);
    out.push(...pluginTypesOf(project, plugin, parts.contentTypes));
  }
  return out;
}
