/**
 * The edit view's Preview entry (docs/admin.md "Preview"): when the document has a preview URL
 * (`meta.previewUrl`: FOLIO_PREVIEW_URL or the project's preview handler), a "Preview" link that
 * opens the saved draft on the site in a new tab, and, while the draft differs from what is
 * published, a link to the published version too. Nothing without a preview URL.
 */
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api, uidPath } from './api';
import type { PanelContext } from './edit-panel';

const NEW_TAB = ' (opens in a new tab)';

function TabLink(props: { href: string; class?: string; text: string }) {
  return h('a', { href: props.href, target: '_blank', rel: 'noopener noreferrer', class: props.class }, [
    props.text,
    h('span', { class: 'visually-hidden' }, NEW_TAB),
  ]);
}

export function PreviewBox(props: PanelContext) {
  const { previewUrl, documentId, ct, locale, status } = props;
  const [published, setPublished] = useState<string | null>(null);
  useEffect(() => {
    setPublished(null);
    if (!previewUrl || !documentId || status !== 'modified') return;
    const query = new URLSearchParams({ status: 'published', ...(locale ? { locale } : {}) });
    api<{ data: { url: string | null } }>('GET', `/preview/${uidPath(ct.uid)}/${encodeURIComponent(documentId)}?${query}`).then(
      (r) => setPublished(r.data.url),
      () => setPublished(null),
    );
  }, [previewUrl, documentId, locale, status]);
  if (!previewUrl || !documentId) return null;
  return h('section', { class: 'box', 'aria-labelledby': 'panel-preview' }, [
    h('h2', { id: 'panel-preview' }, 'Preview'),
    h(
      'p',
      { class: 'muted box-note' },
      props.dirty
        ? 'The preview shows what is saved: save first to see your changes.'
        : ct.draftAndPublish
          ? 'See the saved draft on the site.'
          : 'See the entry on the site.',
    ),
    h(TabLink, { href: previewUrl, class: 'button wide', text: 'Preview' }),
    published ? h('p', { class: 'box-foot' }, h(TabLink, { href: published, text: 'Published version' })) : null,
  ]);
}
