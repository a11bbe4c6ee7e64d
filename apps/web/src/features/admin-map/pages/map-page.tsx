import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function MapPage() {
  return (
    <>
      <PageHeader title="Carte" subtitle="Carte en direct de tous les bots en ligne." />
      <ComingSoon />
    </>
  );
}
