import { ErrorView } from './error-view.tsx';

/** docs/specification.md §2: unmatched paths show 404 with the title "Page Not Found" (the server also answers 404). */
export default function NotFoundPage() {
  return (
    <ErrorView
      status={404}
      title="Page Not Found"
      message="Page not found"
      description="La page demandée n’existe pas ou a été déplacée."
    />
  );
}
