/**
 * Action names, as Strapi spells them: `api::<name>.<name>.<action>` for content types
 * and `plugin::<plugin>.<controller>.<action>` for plugin routes.
 */
import type { ContentType, Registry } from '../registry/types';

export type ContentAction = 'find' | 'findOne' | 'create' | 'update' | 'delete' | DocumentActionName;

/** The document actions of types with draft & publish (POST …/actions/publish|unpublish|discard-draft). */
export type DocumentActionName = 'publish' | 'unpublish' | 'discardDraft';
export const DOCUMENT_ACTIONS: readonly DocumentActionName[] = ['publish', 'unpublish', 'discardDraft'];

export function contentActions(ct: ContentType): ContentAction[] {
  const crud: ContentAction[] = ct.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete'];
  return ct.draftAndPublish ? [...crud, ...DOCUMENT_ACTIONS] : crud;
}

export const actionName = (ct: ContentType, action: ContentAction) => `${ct.uid}.${action}`;

export const PLUGIN_ACTIONS = [
  'plugin::i18n.locales.listLocales',
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.findOne',
  'plugin::upload.content-api.upload',
  'plugin::upload.content-api.destroy',
  'plugin::users-permissions.auth.callback',
  'plugin::users-permissions.auth.register',
  'plugin::users-permissions.auth.forgotPassword',
  'plugin::users-permissions.auth.resetPassword',
  'plugin::users-permissions.auth.changePassword',
  'plugin::users-permissions.auth.emailConfirmation',
  'plugin::users-permissions.auth.sendEmailConfirmation',
  'plugin::users-permissions.auth.connect',
  'plugin::users-permissions.auth.refresh',
  'plugin::users-permissions.auth.logout',
  'plugin::users-permissions.auth.getSessions',
  'plugin::users-permissions.auth.revokeSession',
  'plugin::users-permissions.user.me',
  'plugin::users-permissions.user.find',
  'plugin::users-permissions.user.findOne',
  'plugin::users-permissions.user.count',
  'plugin::users-permissions.user.create',
  'plugin::users-permissions.user.update',
  'plugin::users-permissions.user.destroy',
  'plugin::users-permissions.role.find',
  'plugin::users-permissions.role.findOne',
  'plugin::users-permissions.role.createRole',
  'plugin::users-permissions.role.updateRole',
  'plugin::users-permissions.role.deleteRole',
  'plugin::users-permissions.permissions.getPermissions',
];

/**
 * What Strapi 5.54 grants a new installation's roles (its DEFAULT_PERMISSIONS): logging in,
 * confirming an address, providers and token refresh for the public; its own account,
 * logout and sessions for users. Migrations 0003 and 0013 grant the same to older installations.
 */
export const DEFAULT_ROLE_ACTIONS: Record<string, string[]> = {
  public: [
    'plugin::users-permissions.auth.callback',
    'plugin::users-permissions.auth.register',
    'plugin::users-permissions.auth.forgotPassword',
    'plugin::users-permissions.auth.resetPassword',
    'plugin::users-permissions.auth.emailConfirmation',
    'plugin::users-permissions.auth.sendEmailConfirmation',
    'plugin::users-permissions.auth.connect',
    'plugin::users-permissions.auth.refresh',
  ],
  authenticated: [
    'plugin::users-permissions.user.me',
    'plugin::users-permissions.auth.changePassword',
    'plugin::users-permissions.auth.logout',
    'plugin::users-permissions.auth.getSessions',
    'plugin::users-permissions.auth.revokeSession',
  ],
};

/** Every action a role may be granted. */
export function knownActions(registry: Registry): string[] {
  const names: string[] = [];
  for (const ct of registry.contentTypes) for (const a of contentActions(ct)) names.push(actionName(ct, a));
  for (const action of registry.customActions ?? []) if (!names.includes(action)) names.push(action);
  return [...names, ...PLUGIN_ACTIONS];
}

/** A content type by its plural API id, singular API id or uid (Strapi's own types left out). */
const namedType = (registry: Registry, name: string) =>
  registry.contentTypes.find((c) => !c.system && (c.pluralName === name || c.singularName === name || c.uid === name));

/**
 * An action as a person writes it, in Strapi's name: `articles.find`, `article.findOne` and
 * `api::article.article.find` are one action (TYPE being a plural API id, a singular API id or
 * a uid); `articles.*` every action of the type; plugin actions as Strapi names them.
 */
function strapiActionName(registry: Registry, name: string): string {
  if (name.startsWith('plugin::') || name === '*') return name;
  const whole = namedType(registry, name);
  if (whole)
    throw new Error(
      `"${name}" is a content type, not an action: name one as ${whole.pluralName}.find, ${whole.pluralName}.findOne… or ${whole.pluralName}.* (every action)`,
    );
  if (name.startsWith('api::')) return name;
  const dot = name.lastIndexOf('.');
  const ct = dot > 0 ? namedType(registry, name.slice(0, dot)) : undefined;
  return ct ? `${ct.uid}.${name.slice(dot + 1)}` : name;
}

/** Names what could have been meant: the type's own actions, or how actions are named. */
function unknownAction(registry: Registry, given: string, name: string, known: string[]): string {
  const ct = registry.contentTypes.find((c) => name.startsWith(`${c.uid}.`));
  if (ct)
    return `Unknown action "${given}" (${ct.pluralName} has: ${known
      .filter((k) => k.startsWith(`${ct.uid}.`))
      .map((k) => k.slice(ct.uid.length + 1))
      .join(', ')})`;
  const types = registry.contentTypes.filter((c) => !c.system).map((c) => c.pluralName);
  const plugins = [...new Set(known.filter((k) => k.startsWith('plugin::')).map((k) => k.slice(0, k.lastIndexOf('.'))))];
  return `Unknown action "${given}": name one as TYPE.ACTION (TYPE one of: ${types.join(', ')}; e.g. ${types[0] ?? 'articles'}.find, ${types[0] ?? 'articles'}.*) or a plugin action (${plugins.map((p) => `${p}.*`).join(', ')})`;
}

/**
 * Actions in Strapi's names, from names as `strapiActionName` takes them, `*` wildcards
 * expanded (`api::article.article.*`, `articles.*`); throws on names that match nothing.
 */
export function resolveActions(registry: Registry, requested: string[]): string[] {
  const known = knownActions(registry);
  const out: string[] = [];
  for (const given of requested) {
    const name = strapiActionName(registry, given);
    const matches = name.endsWith('*') ? known.filter((k) => k.startsWith(name.slice(0, -1))) : known.filter((k) => k === name);
    if (matches.length === 0) throw new Error(unknownAction(registry, given, name, known));
    for (const m of matches) if (!out.includes(m)) out.push(m);
  }
  return out;
}

/** Read-only API tokens may call these (Strapi: scopes ending in find/findOne). */
export const isReadAction = (action: string) => /\.(find|findOne)$/.test(action);

/** The users-permissions permission tree (`{ 'api::article': { controllers: { article: { find: { enabled } } } } }`). */
export function permissionTree(actions: string[], enabled: Set<string>) {
  const tree: Record<string, { controllers: Record<string, Record<string, { enabled: boolean; policy: string }>> }> = {};
  for (const action of actions) {
    const [scope, rest] = action.split('::') as [string, string];
    const [api, controller, name] = rest.split('.') as [string, string, string];
    const key = `${scope}::${api}`;
    tree[key] ??= { controllers: {} };
    (tree[key].controllers[controller] ??= {})[name] = { enabled: enabled.has(action), policy: '' };
  }
  return tree;
}

/** Enabled actions of a permission tree sent by a client. */
export function actionsFromTree(tree: unknown): string[] {
  const out: string[] = [];
  if (!tree || typeof tree !== 'object') return out;
  for (const [key, value] of Object.entries(tree as Record<string, { controllers?: Record<string, Record<string, { enabled?: boolean }>> }>)) {
    for (const [controller, actions] of Object.entries(value?.controllers ?? {})) {
      for (const [name, setting] of Object.entries(actions ?? {})) if (setting?.enabled) out.push(`${key}.${controller}.${name}`);
    }
  }
  return out;
}
