import { createRoot } from 'react-dom/client';
import { cssTransition, ToastContainer } from 'react-toastify';
import 'react-toastify/ReactToastify.css';
import { TOAST_AUTO_CLOSE_MS, TOAST_COLLAPSE_MS, TOAST_POSITION, TOAST_THEME } from './constants.ts';

/** @public Read from this module's dynamic import (notify.ts), with the container. */
export { toast } from 'react-toastify';

/** react-toastify's bounce, with the specification's collapse duration (docs/specification.md) written out. */
const toastTransition = cssTransition({
  enter: 'Toastify--animate Toastify__bounce-enter',
  exit: 'Toastify--animate Toastify__bounce-exit',
  appendPosition: true,
  collapseDuration: TOAST_COLLAPSE_MS,
});

/**
 * Mounts the toast container (docs/specification.md §7 settings) in its own root, once. lib/notify.ts loads
 * this module on the first notification, so react-toastify is not part of the first paint
 * (docs/decisions/103); toasts sent before the container is up are queued by react-toastify.
 */
export function mountToaster(): void {
  if (document.getElementById('toaster')) return;
  const host = document.createElement('div');
  host.id = 'toaster';
  document.body.append(host);
  createRoot(host).render(
    <ToastContainer
      position={TOAST_POSITION}
      autoClose={TOAST_AUTO_CLOSE_MS}
      theme={TOAST_THEME}
      transition={toastTransition}
      newestOnTop
      closeOnClick
      pauseOnFocusLoss={false}
      // Below the app bar (64 px) and the site banner, never over the menu and account buttons; a few
      // at a time. Only `top` moves: with a bottom position as well the container (and its toast,
      // which grows to fill it) would stretch down the whole screen (docs/decisions/106).
      style={{ top: 'calc(72px + var(--site-banner-height, 0px))' }}
      limit={3}
    />,
  );
}
