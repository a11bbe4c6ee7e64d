import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function DashboardPage() {
  return (
    <>
      <PageHeader
        title="Administration"
        subtitle="Vue d’ensemble de la plateforme : les indicateurs arrivent bientôt."
      />
      <ComingSoon />
    </>
  );
}
