// The one shell of a dialog that asks for a few fields and runs one action: a narrow Modal whose
// body is a form (Enter submits it while the fields are valid, Esc closes), the action's error
// under the fields, and Close beside the main button (which reads busyLabel while it runs).
import type { ReactNode } from 'react';
import { Modal } from './Modal';
import { InlineError } from './States';

export function FormDialog({
  title,
  onClose,
  onSubmit,
  canSubmit,
  busy,
  confirmLabel,
  busyLabel,
  confirmTitle,
  error,
  closeButton = true,
  children,
}: {
  title: ReactNode;
  onClose: () => void;
  /** the action; called by the main button or by Enter in the form, only while canSubmit */
  onSubmit: () => void;
  canSubmit: boolean;
  busy: boolean;
  confirmLabel: string;
  /** what the main button reads while busy (confirmLabel when not given) */
  busyLabel?: string;
  /** a tooltip on the main button */
  confirmTitle?: string | undefined;
  error: unknown;
  /** a Close button in the footer beside the main one (the header's ✕ is always there) */
  closeButton?: boolean;
  children: ReactNode;
}) {
  return (
    <Modal
      open
      narrow
      onClose={onClose}
      title={title}
      footer={
        <>
          {closeButton && (
            <button type="button" className="btn" onClick={onClose}>
              Close
            </button>
          )}
          <button type="button" className="btn btn-primary" disabled={!canSubmit || busy} title={confirmTitle} onClick={onSubmit}>
            {busy && busyLabel ? busyLabel : confirmLabel}
          </button>
        </>
      }
    >
      <form
        className="col"
        onSubmit={(e) => {
          e.preventDefault();
          if (canSubmit) onSubmit();
        }}
      >
        {children}
        <InlineError error={error} />
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
