// A modal confirmation (the native <dialog>: focus is trapped, Escape cancels) in front of every action.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export interface ConfirmRequest {
  title: string;
  body: string;
  confirmLabel: string;
  /** More to read before confirming (what the action would change). */
  detail?: ComponentChildren;
}

export function ConfirmDialog({
  request,
  onConfirm,
  onCancel,
}: {
  request: ConfirmRequest | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (request && !d.open) d.showModal();
    if (!request && d.open) d.close();
  }, [request]);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-title"
      aria-describedby="confirm-body"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {request ? (
        <form
          method="dialog"
          onSubmit={(e) => {
            e.preventDefault();
            onConfirm();
          }}
        >
          <h2 id="confirm-title">{request.title}</h2>
          <p id="confirm-body">{request.body}</p>
          {request.detail ?? null}
          <div class="dialog-buttons">
            <button type="button" onClick={onCancel} autofocus>
              Cancel
            </button>
            <button type="submit" class="primary">
              {request.confirmLabel}
            </button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
