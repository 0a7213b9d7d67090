/**
 * The home page: what an editor needs first. The drafts saved most recently (never published,
 * or changed since) and the documents published most recently, across types and locales
 * (GET /admin/api/recent), and a way into each content type. Slot: scheduled releases (the
 * Releases work, another branch) go in `HOME_SLOTS`.
 */
import { h, type ComponentChildren } from 'preact';
import { api } from './api';
import { localeLabel, when } from './edit-panel';
import { untitled } from './words';
import { BADGE_TEXT } from './list';
import type { Schema, Session } from './main';
import { Link } from './router';
import { useLoad } from './settings/common';

interface Recent {
  uid: string;
  type: string;
  documentId: string;
  locale: string | null;
  title: string | null;
  updatedAt: string;
  publishedAt: string | null;
  status: string | null;
}

/** Boxes other views add to the home page (scheduled releases, when Releases lands). */
export const HOME_SLOTS: ((schema: Schema) => ComponentChildren)[] = [];

function RecentList(props: { id: string; title: string; items: Recent[] | undefined; empty: string; schema: Schema; published?: boolean }) {
  const name = (code: string | null) => (code ? localeLabel(props.schema.locales.find((l) => l.code === code) ?? { code }) : null);
  return h('section', { class: 'box', 'aria-labelledby': props.id }, [
    h('h2', { id: props.id }, props.title),
    !props.items
      ? h('p', { role: 'status' }, 'Loading…')
      : props.items.length === 0
        ? h('p', { class: 'muted' }, props.empty)
        : h(
            'ul',
            { class: 'recent' },
            props.items.map((r) =>
              h('li', { key: `${r.uid}:${r.documentId}:${r.locale}` }, [
                h(
                  Link,
                  {
                    href: `/admin/content/${encodeURIComponent(r.uid)}/${encodeURIComponent(r.documentId)}${r.locale ? `?locale=${encodeURIComponent(r.locale)}` : ''}`,
                  },
                  r.title ?? untitled(r.type),
                ),
                !props.published && r.status ? h('span', { class: `badge badge-${r.status}` }, BADGE_TEXT[r.status] ?? r.status) : null,
                h(
                  'span',
                  { class: 'muted recent-meta' },
                  [r.type, name(r.locale), props.published ? `published ${when(r.publishedAt)}` : `saved ${when(r.updatedAt)}`].filter(Boolean).join(' · '),
                ),
              ]),
            ),
          ),
  ]);
}

export function Home(props: { schema: Schema; user: NonNullable<Session['user']> }) {
  const { data, error } = useLoad(() => api<{ data: { drafts: Recent[]; published: Recent[] } }>('GET', '/recent').then((r) => r.data));
  const collections = props.schema.contentTypes.filter((ct) => ct.kind === 'collectionType');
  const hello = props.user.firstname ? `Hello ${props.user.firstname}` : 'Home';
  return h('div', null, [
    h('h1', null, hello),
    h('p', { class: 'muted' }, 'Pick up where you left off, or start something new.'),
    error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    h('div', { class: 'home-grid' }, [
      h(RecentList, {
        id: 'home-drafts',
        title: 'Recent drafts',
        items: data?.drafts,
        empty: 'No draft waiting: everything saved is published.',
        schema: props.schema,
      }),
      h(RecentList, {
        id: 'home-published',
        title: 'Recently published',
        items: data?.published,
        empty: 'Nothing published yet.',
        schema: props.schema,
        published: true,
      }),
      ...HOME_SLOTS.map((slot) => slot(props.schema)),
      h('section', { class: 'box', 'aria-labelledby': 'home-create' }, [
        h('h2', { id: 'home-create' }, 'Content'),
        h(
          'ul',
          { class: 'recent' },
          collections.map((ct) =>
            h('li', { key: ct.uid }, [
              h(Link, { href: `/admin/content/${encodeURIComponent(ct.uid)}` }, ct.displayName),
              h(
                Link,
                { href: `/admin/content/${encodeURIComponent(ct.uid)}/new`, class: 'button small', 'aria-label': `Create an entry: ${ct.displayName}` },
                'Create',
              ),
            ]),
          ),
        ),
      ]),
    ]),
  ]);
}
