import { useEffect, useId, useRef, useState } from 'react';
import { messageOf } from '../lib/errors.js';

/**
 * The in-page confirmation before deleting (or revoking, removing) something: a modal `<dialog>`
 * (role alertdialog) whose `showModal()` makes the rest of the page inert, so the focus stays inside;
 * Escape or Cancel close it and the focus returns to the button that opened it. `onConfirm` may be
 * async: the dialog stays open while it runs and shows its error in words if it fails.
 *
 * Usage: `<ConfirmDelete what="the key “ci”" onConfirm={() => revoke(id)} />` renders the opening
 * button itself (`label`, default "Delete").
 */
export function ConfirmDelete(props: {
  /** The thing, as the sentence names it: "the session “Plans”". */
  what: string;
  onConfirm: () => Promise<unknown> | unknown;
  /** The verb on both buttons: Delete, Revoke, Remove. */
  verb?: string;
  /** The opening button's accessible name (default: `${verb} ${what}`) and text (default: verb). */
  label?: string;
  text?: string;
  /** What follows once it is done, in words ("Its messages are deleted too."). */
  consequence?: string;
  className?: string;
  disabled?: boolean;
}) {
  const verb = props.verb ?? 'Delete';
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();
  const bodyId = useId();
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await props.onConfirm();
      setOpen(false);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={props.className ?? 'danger'}
        aria-label={props.label ?? `${verb} ${props.what}`}
        disabled={props.disabled}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        {props.text ?? verb}
      </button>
      <dialog ref={ref} role="alertdialog" aria-modal="true" aria-labelledby={titleId} aria-describedby={bodyId} onClose={() => setOpen(false)} className="confirm">
        {open ? (
          <>
            <h2 id={titleId}>
              {verb} {props.what}?
            </h2>
            <p id={bodyId}>{props.consequence ?? 'This cannot be undone.'}</p>
            {error ? (
              <p className="error" role="alert">
                {error}
              </p>
            ) : null}
            <div className="row">
              <button type="button" onClick={() => setOpen(false)} autoFocus disabled={busy}>
                Cancel
              </button>
              <button type="button" className="danger" onClick={() => void confirm()} disabled={busy} aria-busy={busy}>
                {verb}
              </button>
            </div>
          </>
        ) : null}
      </dialog>
    </>
  );
}
