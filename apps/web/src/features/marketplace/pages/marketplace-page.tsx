import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function MarketplacePage() {
  return (
    <>
      <PageHeader title="Boutique" subtitle="Choisissez l’offre qui donne accès au bot." />
      <ComingSoon />
    </>
  );
}
