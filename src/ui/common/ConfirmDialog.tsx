/** A modal confirmation using the native <dialog>: Escape cancels, focus starts on Cancel. */
import { useEffect, useRef } from 'react';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
}

export function ConfirmDialog({ title, message, confirmLabel, onConfirm, onClose }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="dialog" onClose={onClose} aria-labelledby="confirm-title" data-testid="confirm.dialog">
      <h2 id="confirm-title">{title}</h2>
      <p>{message}</p>
      <div className="dialog-actions">
        <button type="button" autoFocus onClick={() => ref.current?.close()} data-testid="confirm.cancel">
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          onClick={() => {
            onConfirm();
            ref.current?.close();
          }}
          data-testid="confirm.ok"
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
