import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { startBuildUpdates } from '../features/build-update/index.ts';
import { startPublicSettingsSync } from '../features/settings/index.ts';
import { setNavigate } from '../lib/navigation.ts';
import { loadRuntimeConfig } from '../lib/runtime-config.ts';
import { AppProviders } from './providers.tsx';
import { createAppRouter } from './router.tsx';

async function start() {
  const config = await loadRuntimeConfig();
  startBuildUpdates({ intervalMs: config.buildCheckIntervalMs, announcedBuildId: config.buildId });

  startPublicSettingsSync();
  const router = createAppRouter();
  setNavigate((to, options) => router.navigate(to, options));

  const container = document.getElementById('root');
  if (!container) throw new Error('#root manquant dans index.html');
  createRoot(container).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
