/**
 * The home page's scheduled releases: the pending releases that have a time, soonest first
 * (the list answers them so), each with when it publishes and how many entries it holds.
 */
import { h } from 'preact';
import { api } from './api';
import { releaseHref } from './add-to-release';
import { Link } from './router';
import { scheduleText } from './release-time';
import { useLoad } from './settings/common';

interface Summary {
  name: string;
  status: string;
  scheduledAt: string | null;
  timezone: string | null;
  entries: number;
}

const SHOWN = 5;

export function ScheduledReleases() {
  const { data, error } = useLoad(() =>
    api<{ data: Summary[] }>('GET', '/releases').then((r) => r.data.filter((x) => x.status === 'pending' && x.scheduledAt)),
  );
  return h('section', { class: 'box', 'aria-labelledby': 'home-releases' }, [
    h('h2', { id: 'home-releases' }, 'Scheduled releases'),
    error ? h('p', { class: 'error' }, error) : null,
    !data
      ? error
        ? null
        : h('p', { role: 'status' }, 'Loading…')
      : data.length === 0
        ? h('p', { class: 'muted' }, 'No release is scheduled.')
        : h(
            'ul',
            { class: 'recent' },
            data
              .slice(0, SHOWN)
              .map((r) =>
                h('li', { key: r.name }, [
                  h(Link, { href: releaseHref(r.name) }, r.name),
                  h('span', { class: 'muted recent-meta' }, `${scheduleText(r)} · ${r.entries === 1 ? '1 entry' : `${r.entries} entries`}`),
                ]),
              ),
          ),
    h(
      'p',
      { class: 'box-foot' },
      h(Link, { href: '/admin/releases' }, data && data.length > SHOWN ? `All releases (${data.length} scheduled)` : 'All releases'),
    ),
  ]);
}
