/**
 * Settings (Super Admin only: the server refuses an Editor on every settings route, and the
 * app shows an Editor no link): a sub-navigation and one page per area, each deep-linkable
 * under /admin/settings/….
 */
import { h } from 'preact';
import { lazy } from '../lazy';
import { Link } from '../router';
import { AdminsPage, UsersPage } from './people';
import { LocalesPage } from './locales';
import { RolePage, RolesList } from './roles';
import { TokensPage } from './tokens';
import { DeliveryLog, WebhooksPage } from './webhooks';
import { UsersPermissionsPage } from './users-permissions';

// The audit log is a chunk of its own: most visits to Settings never open it.
const AuditPage = lazy('audit log', () => import('./audit').then((m) => m.AuditPage));

const AREAS: [string, string][] = [
  ['roles', 'Roles'],
  ['tokens', 'API tokens'],
  ['locales', 'Locales'],
  ['webhooks', 'Webhooks'],
  ['users', 'Users'],
  ['users-permissions', 'Users & Permissions'],
  ['admins', 'Admin users'],
  ['audit', 'Audit log'],
];

function Area(props: { area: string; rest: string | undefined; url: URL; me: number }) {
  const { area, rest } = props;
  if (area === 'roles') return rest ? h(RolePage, { key: rest, type: rest }) : h(RolesList, null);
  if (rest) return area === 'webhooks' ? h(DeliveryLog, { key: rest, name: rest }) : null;
  if (area === 'tokens') return h(TokensPage, null);
  if (area === 'locales') return h(LocalesPage, null);
  if (area === 'webhooks') return h(WebhooksPage, null);
  if (area === 'users') return h(UsersPage, { url: props.url });
  if (area === 'admins') return h(AdminsPage, { me: props.me });
  if (area === 'users-permissions') return h(UsersPermissionsPage, null);
  if (area === 'audit') return h(AuditPage, {});
  return null;
}

/** `parts`: the path after /admin/settings (area, then one more segment at most). */
export function SettingsView(props: { parts: string[]; url: URL; role: string; me: number }) {
  if (props.role !== 'super-admin') return h('div', null, [h('h1', null, 'Settings'), h('p', null, 'Only a Super Admin may open the settings.')]);
  const [area = 'roles', rest] = props.parts;
  const known = AREAS.some(([key]) => key === area) && props.parts.length <= 2;
  return h('div', null, [
    h('h1', null, 'Settings'),
    h(
      'nav',
      { 'aria-label': 'Settings', class: 'tabs' },
      h(
        'ul',
        null,
        AREAS.map(([key, label]) => h('li', { key }, h(Link, { href: `/admin/settings/${key}`, 'aria-current': key === area ? 'page' : undefined }, label))),
      ),
    ),
    known ? h(Area, { area, rest, url: props.url, me: props.me }) : h('p', null, 'Page not found.'),
  ]);
}
