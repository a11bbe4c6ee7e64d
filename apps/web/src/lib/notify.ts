import { type ToastOptions, toast } from 'react-toastify';
import { TOAST_DEBOUNCE_MS } from './constants.ts';

const lastShown = new Map<string, number>();

/** Same text within TOAST_DEBOUNCE_MS is shown once (SPEC.md section 9 debounce). */
function debounced(message: string): boolean {
  const now = Date.now();
  const previous = lastShown.get(message);
  lastShown.set(message, now);
  return previous !== undefined && now - previous < TOAST_DEBOUNCE_MS;
}

export function notifyError(message: string, options?: ToastOptions): void {
  if (debounced(message)) return;
  toast.error(message, { toastId: `error:${message}`, ...options });
}

export function notifySuccess(message: string, options?: ToastOptions): void {
  if (debounced(message)) return;
  toast.success(message, options);
}

export function notifyInfo(message: string, options?: ToastOptions): void {
  if (debounced(message)) return;
  toast.info(message, { toastId: `info:${message}`, ...options });
}
