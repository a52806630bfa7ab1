// A modal dialog over the page: the browser's <dialog> traps the focus in it,
// closes it with Escape and gives the focus back to what had it before.
import { useEffect, useRef, type ReactNode } from 'react';

export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ReactNode; footer: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (props.open && !d.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
    } else if (!props.open && d.open) d.close();
  }, [props.open]);
  // closed before it leaves the page; the focus goes back to what opened it, or to the page's heading when
  // that has gone with what the dialog removed (a deleted row)
  useEffect(() => {
    const d = ref.current;
    return () => {
      if (d?.open) d.close();
      giveBack(opener.current);
    };
  }, []);
  const titleId = `dialog-${props.title.replace(/\W+/g, '-').toLowerCase()}`;
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={() => {
        giveBack(opener.current);
        props.onClose();
      }}
    >
      {props.open && (
        <article>
          <header>
            <h3 id={titleId}>{props.title}</h3>
          </header>
          {props.children}
          <footer>{props.footer}</footer>
        </article>
      )}
    </dialog>
  );
}

function giveBack(opener: HTMLElement | null) {
  if (opener?.isConnected) return opener.focus();
  const heading = document.querySelector<HTMLElement>('main h2');
  if (heading && !document.activeElement?.closest('main')) {
    heading.tabIndex = -1;
    heading.focus();
  }
}

/** Asks before something that cannot be undone; the cancel button has the focus first. */
export function Confirm(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirm: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Dialog
      open={props.open}
      title={props.title}
      onClose={props.onCancel}
      footer={
        <>
          <button type="button" className="secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="button" className="danger" aria-busy={props.busy} disabled={props.busy} onClick={props.onConfirm}>
            {props.confirm}
          </button>
        </>
      }
    >
      {props.children}
    </Dialog>
  );
}
