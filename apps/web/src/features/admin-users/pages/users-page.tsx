import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function UsersPage() {
  return (
    <>
      <PageHeader title="Utilisateurs" subtitle="Les comptes des utilisateurs." />
      <ComingSoon />
    </>
  );
}
