import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function AuditPage() {
  return (
    <>
      <PageHeader title="Audit" subtitle="Journal de toutes les actions d’administration." />
      <ComingSoon />
    </>
  );
}
