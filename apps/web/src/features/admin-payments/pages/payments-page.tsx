import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function PaymentsPage() {
  return (
    <>
      <PageHeader title="Paiements" subtitle="Les paiements et commandes des clients." />
      <ComingSoon />
    </>
  );
}
