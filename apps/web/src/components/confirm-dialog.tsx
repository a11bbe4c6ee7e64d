import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useId } from 'react';

/**
 * Asks before a destructive action, saying what will happen. The safe choice has the focus, so
 * Enter or Escape never destroys anything by accident.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Annuler',
  isBusy = false,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  /** What will happen, in plain words (consequences, delays). */
  children: ReactNode;
  confirmLabel: string;
  /** The safe choice's words, when "Annuler" would read like the action (cancelling something). */
  cancelLabel?: string;
  isBusy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId} component="div">
          {children}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} autoFocus>
          {cancelLabel}
        </Button>
        <Button
          color="error"
          variant="contained"
          disabled={isBusy}
          onClick={onConfirm}
          data-testid="confirm-action"
        >
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
