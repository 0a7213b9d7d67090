/**
 * Folio Admin in the browser. Preact (about 4 KB compressed): the components and hooks
 * model of React at a size that keeps the whole app far under its budget, and no build
 * step beyond Bun's bundler. Written with `h()` calls rather than JSX, so the project's
 * TypeScript settings need no JSX option.
 */
import { h, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AdminComponent, AdminContentType } from '../schema';
import { api, setCsrfToken } from './api';
import { browser } from './dom';
import { AuthForm } from './auth';
import { ConfigureView } from './configure';
import { AddToReleaseBox } from './add-to-release';
import { EditView } from './edit';
import { PANEL_SLOTS } from './edit-panel';
import { HistoryBox } from './history';
import { PreviewBox } from './preview';
import { Home, HOME_SLOTS } from './home';
import { lazy } from './lazy';
import { ScheduledReleases } from './scheduled-releases';
import { ProfilePage } from './profile';
import { ListView } from './list';
import { MediaLibrary } from './media-library';
import { SettingsView } from './settings/index';
import { Link, navigate, useLocation } from './router';

export interface Session {
  user: { id: number; email: string; role: 'super-admin' | 'editor'; firstname?: string | null; lastname?: string | null } | null;
  csrfToken: string | null;
  setupRequired: boolean;
  setupNeedsCode?: boolean;
  /** Whether the server sends mail ("Forgot password?" mails a link only then). */
  mailConfigured?: boolean;
}

export interface Schema {
  contentTypes: AdminContentType[];
  components: AdminComponent[];
  locales: { code: string; name: string; isDefault?: boolean }[];
  defaultLocale: string;
}

const ReleasesPage = lazy('Releases page', () => import('./releases').then((m) => m.ReleasesPage));

// The editorial views in the edit view's side panel and on the home page.
PANEL_SLOTS.push(
  (c) => h(PreviewBox, { ...c, key: 'preview' }),
  (c) => h(HistoryBox, { ...c, key: 'history' }),
  (c) => h(AddToReleaseBox, { ...c, key: 'releases' }),
);
HOME_SLOTS.push(() => h(ScheduledReleases, { key: 'releases' }));

const ROLE_NAMES = { 'super-admin': 'Super Admin', editor: 'Editor' } as const;

function Nav(props: { schema: Schema; path: string; role?: string; open: boolean }) {
  const link = (ct: AdminContentType) => {
    const href = `/admin/content/${encodeURIComponent(ct.uid)}`;
    const current = props.path === href || props.path.startsWith(`${href}/`);
    return h('li', { key: ct.uid }, h(Link, { href, 'aria-current': current ? 'page' : undefined }, ct.displayName));
  };
  const collections = props.schema.contentTypes.filter((ct) => ct.kind === 'collectionType');
  const singles = props.schema.contentTypes.filter((ct) => ct.kind === 'singleType');
  return h('nav', { id: 'app-nav', 'aria-label': 'Content manager', class: `sidebar${props.open ? ' open' : ''}` }, [
    h('h2', { id: 'nav-collections' }, 'Collection types'),
    h('ul', { 'aria-labelledby': 'nav-collections' }, collections.map(link)),
    singles.length ? h('h2', { id: 'nav-singles' }, 'Single types') : null,
    singles.length ? h('ul', { 'aria-labelledby': 'nav-singles' }, singles.map(link)) : null,
    // Releases and Media for every admin; Settings only for a Super Admin (the server refuses an Editor anyway).
    h('h2', { id: 'nav-general' }, 'General'),
    h('ul', { 'aria-labelledby': 'nav-general' }, [
      h(
        'li',
        null,
        h(
          Link,
          { href: '/admin/releases', 'aria-current': props.path === '/admin/releases' || props.path.startsWith('/admin/releases/') ? 'page' : undefined },
          'Releases',
        ),
      ),
      h('li', null, h(Link, { href: '/admin/media', 'aria-current': props.path === '/admin/media' ? 'page' : undefined }, 'Media Library')),
      h('li', null, h(Link, { href: '/admin/profile', 'aria-current': props.path === '/admin/profile' ? 'page' : undefined }, 'Your profile')),
      props.role === 'super-admin'
        ? h('li', null, h(Link, { href: '/admin/settings/roles', 'aria-current': props.path.startsWith('/admin/settings') ? 'page' : undefined }, 'Settings'))
        : null,
    ]),
  ]);
}

function Routes(props: {
  schema: Schema;
  url: URL;
  user: NonNullable<Session['user']>;
  reloadSchema: () => Promise<void>;
  onUser: (user: NonNullable<Session['user']>) => void;
}) {
  const parts = props.url.pathname.replace(/\/+$/, '').split('/').slice(2).map(decodeURIComponent);
  if (parts.length === 0) return h(Home, { schema: props.schema, user: props.user });
  if (parts[0] === 'profile' && parts.length === 1) return h(ProfilePage, { user: props.user, onUser: props.onUser });
  if (parts[0] === 'configure' && parts.length === 2) {
    const configured = props.schema.contentTypes.find((c) => c.uid === parts[1]);
    if (configured) return h(ConfigureView, { key: configured.uid, schema: props.schema, ct: configured, role: props.user.role, onSaved: props.reloadSchema });
  }
  if (parts[0] === 'settings') return h(SettingsView, { parts: parts.slice(1), url: props.url, role: props.user.role, me: props.user.id });
  if (parts[0] === 'releases' && parts.length <= 2) return h(ReleasesPage, { schema: props.schema, name: parts[1] });
  if (parts[0] === 'media' && parts.length === 1) return h(MediaLibrary, { url: props.url });
  const ct = parts[0] === 'content' ? props.schema.contentTypes.find((c) => c.uid === parts[1]) : undefined;
  if (!ct || parts.length > 3)
    return h('div', null, [h('h1', null, 'Page not found'), h('p', null, h(Link, { href: '/admin' }, 'Back to the content manager'))]);
  const locale = props.url.searchParams.get('locale') ?? undefined;
  if (ct.kind === 'singleType') return h(EditView, { key: `${ct.uid}:single:${locale}`, schema: props.schema, ct, documentId: 'single', locale });
  if (parts.length === 2) return h(ListView, { key: ct.uid, schema: props.schema, ct, url: props.url, role: props.user.role });
  const documentId = parts[2] === 'new' ? null : parts[2]!;
  return h(EditView, { key: `${ct.uid}:${documentId}:${locale}`, schema: props.schema, ct, documentId, locale });
}

function App() {
  const url = useLocation();
  const [session, setSession] = useState<Session | null>(null);
  const [schema, setSchema] = useState<Schema | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  // Going somewhere folds the phone's menu again.
  useEffect(() => setMenuOpen(false), [url.href]);

  const loadSchema = () =>
    api<{ data: Schema }>('GET', '/schema').then(
      (r) => setSchema(r.data),
      (e) => setError((e as Error).message),
    );
  const adopt = (s: Session) => {
    setCsrfToken(s.csrfToken);
    setSession(s);
    if (s.user) void loadSchema();
    else setSchema(null);
  };

  useEffect(() => {
    api<{ data: Session }>('GET', '/session').then(
      (r) => adopt(r.data),
      (e) => setError((e as Error).message),
    );
  }, []);

  async function logout() {
    await api('POST', '/logout').catch(() => {});
    adopt({ user: null, csrfToken: null, setupRequired: false });
    navigate('/admin');
  }

  if (error) return h('main', { class: 'auth' }, h('p', { class: 'error', role: 'alert' }, error));
  if (!session) return h('p', { class: 'loading', role: 'status' }, 'Loading…');
  if (!session.user) {
    const resetToken = url.pathname === '/admin/reset-password' ? url.searchParams.get('token') : null;
    return h(AuthForm, {
      mode: session.setupRequired ? 'setup' : 'login',
      needsCode: !!session.setupNeedsCode,
      mailConfigured: session.mailConfigured,
      resetToken,
      onSession: adopt,
    });
  }
  const editing =
    /^\/admin\/content\/[^/]+\/[^/]+/.test(url.pathname) ||
    (schema?.contentTypes.some((c) => c.kind === 'singleType' && url.pathname === `/admin/content/${encodeURIComponent(c.uid)}`) ?? false);
  return h('div', { class: 'shell' }, [
    h('a', { href: '#main', class: 'skip' }, 'Skip to content'),
    h('header', { class: 'topbar' }, [
      h(Link, { href: '/admin', class: 'brand' }, 'Folio Admin'),
      // Phones: the navigation folds behind this button (wider screens always show it).
      h(
        'button',
        {
          type: 'button',
          class: 'menu-toggle',
          'aria-expanded': menuOpen ? 'true' : 'false',
          'aria-controls': 'app-nav',
          onClick: () => setMenuOpen(!menuOpen),
        },
        'Menu',
      ),
      h(
        Link,
        { href: '/admin/profile', class: 'who' },
        `${[session.user.firstname, session.user.lastname].filter(Boolean).join(' ') || session.user.email} (${ROLE_NAMES[session.user.role]})`,
      ),
      h('button', { type: 'button', onClick: logout }, 'Log out'),
    ]),
    schema ? h(Nav, { schema, path: url.pathname, role: session.user.role, open: menuOpen }) : null,
    h(
      'main',
      { id: 'main', tabIndex: -1, class: editing ? 'with-bar' : undefined },
      schema
        ? h(Routes, { schema, url, user: session.user, reloadSchema: loadSchema, onUser: (user) => setSession({ ...session, user }) })
        : h('p', { role: 'status' }, 'Loading…'),
    ),
  ]);
}

render(h(App, null), browser.document.getElementById('app') as never);
