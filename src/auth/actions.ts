/**
 * Action names, as Strapi spells them: `api::<name>.<name>.<action>` for content types
 * and `plugin::<plugin>.<controller>.<action>` for plugin routes.
 */
import type { ContentType, Registry } from '../registry/types';

export type ContentAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

export function contentActions(ct: ContentType): ContentAction[] {
  return ct.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete'];
}

export const actionName = (ct: ContentType, action: ContentAction) => `${ct.uid}.${action}`;

export const PLUGIN_ACTIONS = [
  'plugin::i18n.locales.listLocales',
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.findOne',
  'plugin::upload.content-api.upload',
  'plugin::upload.content-api.destroy',
];

/** Every action a role may be granted. */
export function knownActions(registry: Registry): string[] {
  const names: string[] = [];
  for (const ct of registry.contentTypes) for (const a of contentActions(ct)) names.push(actionName(ct, a));
  return [...names, ...PLUGIN_ACTIONS];
}

/** Expands `api::article.article.*` style wildcards; throws on names that match nothing. */
export function resolveActions(registry: Registry, requested: string[]): string[] {
  const known = knownActions(registry);
  const out: string[] = [];
  for (const name of requested) {
    const matches = name.endsWith('*') ? known.filter((k) => k.startsWith(name.slice(0, -1))) : known.filter((k) => k === name);
    if (matches.length === 0) {
      throw new Error(`Unknown action "${name}". Known actions:\n  ${known.join('\n  ')}`);
    }
    for (const m of matches) if (!out.includes(m)) out.push(m);
  }
  return out;
}

/** Read-only API tokens may call these (Strapi: scopes ending in find/findOne). */
export const isReadAction = (action: string) => /\.(find|findOne)$/.test(action);
