import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isChunkLoadError } from '../../features/build-update/build-check.ts';
import { reloadPageOnce } from '../../lib/reload-guard.ts';
import { ErrorView } from './error-view.tsx';
import NotFoundPage from './not-found-page.tsx';

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
