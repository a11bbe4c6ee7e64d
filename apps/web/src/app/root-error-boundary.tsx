import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorView } from '../components/errors/error-view.tsx';
import NotFoundPage from '../components/errors/not-found-page.tsx';
import { isChunkLoadError } from '../features/build-update/index.ts';
import { reloadPageOnce } from '../lib/reload-guard.ts';

/** Router errorElement: 404 responses get the 404 page, anything else the error view. */
export function RootErrorBoundary() {
  const error = useRouteError();

  if (isRouteErrorResponse(error)) {
    if (error.status === 404) return <NotFoundPage />;
    return (
      <ErrorView
        status={error.status}
        description={
          typeof error.data === 'string' && error.data ? error.data : error.statusText || undefined
        }
      />
    );
  }
  if (isChunkLoadError(error)) {
    if (reloadPageOnce('module introuvable après une mise à jour')) return null;
    return (
      <ErrorView description="Une partie du site n’a pas pu être chargée, sans doute à cause d’une nouvelle version. Rechargez la page." />
    );
  }

  console.warn('Erreur non gérée', error);
  return <ErrorView status={500} description={error instanceof Error ? error.message : undefined} />;
}
