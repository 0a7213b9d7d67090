/**
 * Custom fields a project's code registers (`strapi.customFields.register({ name, plugin, type })`
 * in a plugin's (local or npm) or the app's `register`), known before the schemas are read: Strapi gives
 * a `"type": "customField"` attribute its registered storage type when it loads the schema,
 * and so does Folio's registry (registry/fields/custom.ts), which is loaded before the project
 * runs. So `register` is first run here against a stand-in `strapi` that only records
 * `customFields.register` (everything else it touches does nothing), then for real at start.
 * A register that fails here is left to fail at start, where its error is reported.
 */
import { CUSTOM_FIELD_TYPES } from '../registry/fields/custom';
import type { ScalarType } from '../registry/types';
import type { ProjectConfig } from '../config';
import { createEnv } from './env';
import { loadFile, ProjectLoadError } from './module-host';
import { fillStrapiModules } from './modules';
import { codeFileOf } from './module-host';
import { enabledPlugins } from './plugins/enabled';
import { pluginParts } from './plugins/local';

type Obj = Record<string, any>;

/** A `customFields.register` argument → uid and storage type (Strapi's: `plugin::<plugin>.<name>`, or `global::<name>`). */
export function registeredField(field: Obj): [string, ScalarType] {
  if (!field || typeof field.name !== 'string' || !field.name) throw new ProjectLoadError('customFields.register: a custom field needs a name');
  const uid = field.plugin ? `plugin::${field.plugin}.${field.name}` : `global::${field.name}`;
  if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(field.type)) {
    throw new ProjectLoadError(
      `customFields.register: custom field ${uid} has type ${JSON.stringify(field.type)}; expected one of: ${CUSTOM_FIELD_TYPES.join(', ')}`,
    );
  }
  return [uid, field.type as ScalarType];
}

/** Anything at all: every property is another one, every call answers one (a promise's `then` excepted). */
function inert(): any {
  const fn = () => proxy;
  const proxy: any = new Proxy(fn, {
    get: (_, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : proxy),
    apply: () => proxy,
  });
  return proxy;
}

export function discoverCustomFields(project: ProjectConfig): Record<string, ScalarType> {
  fillStrapiModules(project.vars);
  const found: Record<string, ScalarType> = {};
  const base = inert();
  const strapi = new Proxy(
    {},
    {
      get: (_, key) => {
        if (key === 'customFields') {
          return {
            register: (fields: Obj | Obj[]) => {
              for (const f of Array.isArray(fields) ? fields : [fields]) {
                const [uid, type] = registeredField(f);
                found[uid] = type;
              }
            },
          };
        }
        return key === 'then' ? undefined : base;
      },
    },
  );
  const env = createEnv(project.vars);
  const registers: Function[] = [];
  for (const plugin of enabledPlugins(project).plugins) {
    const register = pluginParts(loadFile(plugin.file, project.root), env).register;
    if (typeof register === 'function') registers.push(register);
  }
  const index = codeFileOf(project.src, 'index');
  const app = (index ? loadFile(index, project.root) : undefined) as Obj | undefined;
  if (typeof app?.register === 'function') registers.push(app.register.bind(app));
  for (const register of registers) {
    try {
      const done = register({ strapi });
      if (done && typeof done.catch === 'function') done.catch(() => {});
    } catch (error) {
      if (error instanceof ProjectLoadError && /customFields/.test(error.message)) throw error;
    }
  }
  return found;
}
