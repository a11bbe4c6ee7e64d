import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function PackagesPage() {
  return (
    <>
      <PageHeader title="Offres" subtitle="Les offres vendues dans la boutique." />
      <ComingSoon />
    </>
  );
}
