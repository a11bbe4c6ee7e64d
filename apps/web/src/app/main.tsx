// The global styles first (the baseline, focus, skip link, progress bar), then the components' modules.
import './base.css';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { startBuildUpdates } from '../features/build-update/index.ts';
import { startPublicSettingsSync } from '../features/settings/index.ts';
import { setNavigate } from '../lib/navigation.ts';
import { whenRuntimeConfig } from '../lib/runtime-config.ts';
import { createAppRouter } from './router.tsx';

function start() {
  // /config.json is read now but not waited for: the first page renders meanwhile, and whatever
  // needs the config waits for it (lib/runtime-config.ts).
  startBuildUpdates(whenRuntimeConfig());

  startPublicSettingsSync();
  const router = createAppRouter();
  setNavigate((to, options) => router.navigate(to, options));

  const container = document.getElementById('root');
  if (!container) throw new Error('#root manquant dans index.html');
  const render = () => {
    // Over a prerendered page: the same control keeps the focus (a keyboard user may already have
    // tabbed into the static copy), then `data-prerendered` goes (tests wait for the live app on it).
    const focusables = () => [
      ...container.querySelectorAll<HTMLElement>('a[href], button, input, textarea, select, [tabindex]'),
    ];
    const focused =
      document.activeElement instanceof HTMLElement ? focusables().indexOf(document.activeElement) : -1;
    flushSync(() =>
      createRoot(container).render(
        <StrictMode>
          <RouterProvider router={router} />
        </StrictMode>,
      ),
    );
    if (focused >= 0) focusables()[focused]?.focus();
    delete container.dataset.prerendered;
  };
  // A prerendered page (docs/decisions/106) stays on screen until its chunk is loaded: rendering at
  // once would swap it for the loading bar, then back.
  if (container.firstElementChild && !router.state.initialized) {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      render();
    });
  } else {
    render();
  }
}

start();
