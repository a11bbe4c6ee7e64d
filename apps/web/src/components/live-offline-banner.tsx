import type { LiveConnectionState } from '../lib/socket/socket-client.ts';
import { Notice } from './notice.tsx';

/**
 * A discreet notice while a live page has lost the server (restart, network): the socket reconnects
 * by itself and the page resyncs, so there is nothing to click, only something to know.
 */
export function LiveOfflineBanner({ state }: { state: LiveConnectionState }) {
  if (state !== 'reconnecting') return null;
  return (
    <Notice severity="info" role="status" data-testid="live-offline" sx={{ mb: 2 }}>
      Connexion au serveur perdue : reconnexion automatique en cours, les données reprendront d’elles-mêmes.
    </Notice>
  );
}
