import type { ToastOptions } from 'react-toastify';
import { TOAST_DEBOUNCE_MS } from './constants.ts';

type Toaster = typeof import('./toaster.tsx');

let toaster: Promise<Toaster> | undefined;

/** react-toastify and its container load with the first notification, not with the page. */
function withToast(show: (toast: Toaster['toast']) => void): void {
  toaster ??= import('./toaster.tsx').then((module) => {
    module.mountToaster();
    return module;
  });
  toaster.then(
    ({ toast }) => show(toast),
    () => {
      toaster = undefined; // a failed chunk load: the next notification tries again
    },
  );
}

const lastShown = new Map<string, number>();

/** Same text within TOAST_DEBOUNCE_MS is shown once (docs/specification.md §7 debounce). */
function debounced(message: string): boolean {
  const now = Date.now();
  const previous = lastShown.get(message);
  lastShown.set(message, now);
  return previous !== undefined && now - previous < TOAST_DEBOUNCE_MS;
}

export function notifyError(message: string, options?: ToastOptions): void {
  if (debounced(message)) return;
  withToast((toast) => toast.error(message, { toastId: `error:${message}`, ...options }));
}

export function notifySuccess(message: string, options?: ToastOptions): void {
  if (debounced(message)) return;
  // One toast per event: the same message again replaces the one on screen instead of piling up.
  withToast((toast) => toast.success(message, { toastId: `success:${message}`, ...options }));
}

export function notifyInfo(message: string, options?: ToastOptions): void {
  if (debounced(message)) return;
  withToast((toast) => toast.info(message, { toastId: `info:${message}`, ...options }));
}
