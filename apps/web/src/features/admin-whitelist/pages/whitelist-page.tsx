import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function WhitelistPage() {
  return (
    <>
      <PageHeader title="Liste blanche" subtitle="Les comptes de jeu autorisés de tous les clients." />
      <ComingSoon />
    </>
  );
}
