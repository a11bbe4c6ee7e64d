import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function VouchersPage() {
  return (
    <>
      <PageHeader title="Bons" subtitle="Les bons de réduction." />
      <ComingSoon />
    </>
  );
}
