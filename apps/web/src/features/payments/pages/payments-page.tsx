import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function PaymentsPage() {
  return (
    <>
      <PageHeader title="Mes paiements" subtitle="L’historique de vos commandes et paiements." />
      <ComingSoon />
    </>
  );
}
