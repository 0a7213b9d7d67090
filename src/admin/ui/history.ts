/**
 * The edit view's History entry (docs/admin.md "Content history"): a "History" button in the
 * side panel that opens the History dialog (history-dialog.ts, a chunk fetched the first time).
 */
import { h } from 'preact';
import { useState } from 'preact/hooks';
import type { PanelContext } from './edit-panel';
import { lazy } from './lazy';

const HistoryDialog = lazy('history', () => import('./history-dialog').then((m) => m.HistoryDialog));

/** The side panel's History entry (a saved entry only). */
export function HistoryBox(props: PanelContext) {
  const [open, setOpen] = useState(false);
  if (!props.documentId) return null;
  return h('section', { class: 'box', 'aria-labelledby': 'panel-history' }, [
    h('h2', { id: 'panel-history' }, 'Versions'),
    h('p', { class: 'muted box-note' }, 'Every save and publication is kept: compare them and restore one.'),
    h('button', { type: 'button', id: 'history-open', class: 'wide', 'aria-haspopup': 'dialog', onClick: () => setOpen(true) }, 'History'),
    open ? h(HistoryDialog, { ...props, onClose: () => setOpen(false) }) : null,
  ]);
}
