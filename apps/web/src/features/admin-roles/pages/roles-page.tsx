import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function RolesPage() {
  return (
    <>
      <PageHeader title="Rôles" subtitle="Les rôles et les permissions qu’ils donnent." />
      <ComingSoon />
    </>
  );
}
