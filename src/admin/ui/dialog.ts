/**
 * A modal dialog named by its heading: the focus moves into it when it opens, Tab and
 * Shift+Tab stay inside it, Escape closes it, and the focus goes back to what opened it
 * when it closes. Wide screens see it centred over a dimmed page; phones full screen.
 */
import { h, type ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]):not([type=hidden]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

export function Dialog(props: { id: string; title: string; class?: string; onClose: () => void; children?: ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(props.onClose);
  close.current = props.onClose;
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    box.current?.querySelector<HTMLElement>(`#${props.id}-title`)?.focus();
    // Escape closes it wherever the focus is (a control that went away leaves it on the page).
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      close.current();
    };
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('keydown', escape);
      // The opener may have been rendered anew while the dialog was open (the form reloaded after
      // a restore), or be about to be: then the element carrying its id gets the focus, now or
      // once the view has rendered.
      const back = () => {
        const target = opener?.isConnected ? opener : opener?.id ? document.getElementById(opener.id) : null;
        target?.focus?.();
        return !!target;
      };
      if (!back() && opener?.id) setTimeout(back, 0);
    };
  }, []);

  function keydown(event: KeyboardEvent) {
    if (event.key !== 'Tab' || !box.current) return;
    const inside = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
    if (!inside.length) return;
    const first = inside[0]!;
    const last = inside[inside.length - 1]!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !box.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return h(
    'div',
    { class: 'dialog-backdrop', onClick: (e: MouseEvent) => e.target === e.currentTarget && props.onClose() },
    h(
      'div',
      {
        ref: box,
        id: props.id,
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': `${props.id}-title`,
        class: `dialog${props.class ? ` ${props.class}` : ''}`,
        onKeyDown: keydown,
      },
      [
        h('div', { class: 'dialog-head' }, [
          h('h2', { id: `${props.id}-title`, tabIndex: -1 }, props.title),
          h('button', { type: 'button', class: 'small', onClick: props.onClose }, 'Close'),
        ]),
        props.children,
      ],
    ),
  );
}
