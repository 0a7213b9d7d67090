/**
 * The edit view's side panel: the document's actions (Save, Publish, Unpublish, Discard
 * changes, Delete), what it is (status, created, last saved, published, by whom when the API
 * says), and its locale versions with their states. On wide screens it sits beside the form
 * and stays in view; on narrow ones Save and Publish become a bar fixed at the bottom and the
 * rest follows the form (style.ts).
 *
 * Slots for the editorial work: `PANEL_SLOTS` is where the "Preview", "History" and "Add to
 * release" entries plug in (preview.ts, history.ts, add-to-release.ts), each a box of its own
 * below the actions.
 */
import { h, type ComponentChildren } from 'preact';
import type { AdminComponent, AdminContentType } from '../schema';
import { BADGE_TEXT } from './list';
import type { Schema } from './main';
import { Link } from './router';

export interface LocaleVersion {
  locale: string;
  status: string | null;
  updatedAt: string;
  publishedAt: string | null;
}

/** What the panel knows of the document as last read (GET …/:documentId `data` and `meta`). */
export interface DocumentInfo {
  documentId?: string;
  createdAt?: string;
  updatedAt?: string;
  publishedAt?: string | null;
  createdBy?: unknown;
  updatedBy?: unknown;
  availableLocales?: LocaleVersion[];
  previewUrl?: string | null;
}

/** What a slot of the panel knows of the document open in the edit view. */
export interface PanelContext {
  schema: Schema;
  ct: AdminContentType;
  components: Record<string, AdminComponent>;
  /** The document's id (a single type's too); null while it is not created yet. */
  documentId: string | null;
  locale?: string;
  status: string | null;
  /** Where the draft is previewed (`meta.previewUrl`), or null. */
  previewUrl: string | null;
  /** The form holds unsaved changes. */
  dirty: boolean;
  /** Reads the document again into the form (after a restore). */
  reload: () => void;
}

/** A slot of the panel: given the document's context, a box (or nothing). */
export type PanelSlot = (context: PanelContext) => ComponentChildren;

/** Preview, History, Add to release: registered by main.ts (in that order). */
export const PANEL_SLOTS: PanelSlot[] = [];

/** A locale's name as the editor reads it: "French (fr)", never "English (en) (en)". */
export function localeLabel(l: { code: string; name?: string | null }): string {
  const name = l.name?.trim();
  if (!name) return l.code;
  return name.includes(`(${l.code})`) ? name : `${name} (${l.code})`;
}

export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—');

/** Who as the API gives it (a writer as history keeps it, `{ kind, name }`, or an admin user with names or an email), or nothing. */
function who(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.kind === 'string') return actorText({ kind: v.kind, name: typeof v.name === 'string' ? v.name : null });
  const name = [v.firstname, v.lastname].filter((x) => typeof x === 'string' && x).join(' ');
  return name || (typeof v.username === 'string' && v.username) || (typeof v.email === 'string' && v.email) || null;
}

const ACTORS: Record<string, string> = { public: 'the public API', cli: 'the command line', system: 'Folio (a scheduled release)', project: 'project code' };

/** Who made a write (a version, an audit row), in words. */
export function actorText(actor: { kind: string; name: string | null }): string {
  if (actor.kind === 'token') return actor.name ? `API token “${actor.name}”` : 'an API token';
  if (actor.kind === 'user') return actor.name ? `API user ${actor.name}` : 'an API user';
  if (actor.name && actor.kind !== 'public') return actor.name;
  return ACTORS[actor.kind] ?? actor.kind;
}

export interface Action {
  label: string;
  onClick?: () => void;
  primary?: boolean;
  danger?: boolean;
  disabled?: boolean;
  submit?: boolean;
  keyshortcuts?: string;
}

const button = (a: Action) =>
  h(
    'button',
    {
      type: a.submit ? 'submit' : 'button',
      form: a.submit ? 'edit-form' : undefined,
      class: a.primary ? 'primary' : a.danger ? 'danger' : undefined,
      disabled: a.disabled,
      onClick: a.onClick,
      'aria-keyshortcuts': a.keyshortcuts,
    },
    a.label,
  );

/** Save and Publish first (the bar on phones), the rarer actions after them. */
export function ActionsBox(props: { main: Action[]; more: Action[]; dirty: boolean }) {
  return h('section', { class: 'box edit-actions', 'aria-label': 'Document actions' }, [
    props.dirty ? h('p', { class: 'muted dirty' }, 'Unsaved changes') : null,
    h('div', { class: 'main-actions' }, props.main.map(button)),
    props.more.length ? h('div', { class: 'more-actions' }, props.more.map(button)) : null,
  ]);
}

/** On narrow screens the rarer actions, below the form (the bar holds only Save and Publish). */
export function MoreBox(props: { more: Action[] }) {
  if (!props.more.length) return null;
  return h('section', { class: 'box more-box', 'aria-label': 'More actions' }, h('div', { class: 'row-actions' }, props.more.map(button)));
}

export function InfoBox(props: { info: DocumentInfo; draftAndPublish: boolean; status: string | null }) {
  const { info } = props;
  const createdBy = who(info.createdBy);
  const updatedBy = who(info.updatedBy);
  return h('section', { class: 'box', 'aria-labelledby': 'panel-info' }, [
    h('h2', { id: 'panel-info' }, 'Information'),
    h('dl', { class: 'facts' }, [
      props.draftAndPublish ? [h('dt', null, 'Status'), h('dd', null, props.status ? (BADGE_TEXT[props.status] ?? props.status) : 'New')] : null,
      h('dt', null, 'Created'),
      h('dd', null, info.createdAt ? `${when(info.createdAt)}${createdBy ? ` by ${createdBy}` : ''}` : 'Not yet'),
      h('dt', null, 'Last saved'),
      h('dd', null, info.updatedAt ? `${when(info.updatedAt)}${updatedBy ? ` by ${updatedBy}` : ''}` : 'Not yet'),
      props.draftAndPublish ? [h('dt', null, 'Published'), h('dd', null, info.publishedAt ? when(info.publishedAt) : 'Not published')] : null,
    ]),
  ]);
}

/** Each locale of the installation: its version's state (or "Not created"), a link to open it. */
export function LocalesBox(props: { schema: Schema; locale: string; versions: LocaleVersion[]; hrefOf: (code: string) => string }) {
  const { schema } = props;
  const byCode = new Map(props.versions.map((v) => [v.locale, v]));
  return h('section', { class: 'box', 'aria-labelledby': 'panel-locales' }, [
    h('h2', { id: 'panel-locales' }, 'Locales'),
    h(
      'ul',
      { class: 'locale-list' },
      schema.locales.map((l) => {
        const version = byCode.get(l.code);
        const href = props.hrefOf(l.code);
        const state = !version ? 'Not created' : version.status ? (BADGE_TEXT[version.status] ?? version.status) : 'Created';
        return h('li', { key: l.code }, [
          h(Link, { href, 'aria-current': l.code === props.locale ? 'page' : undefined }, localeLabel(l)),
          h('span', { class: version?.status ? `badge badge-${version.status}` : 'muted' }, state),
        ]);
      }),
    ),
  ]);
}
