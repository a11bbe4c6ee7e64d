import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function UsersOnlinePage() {
  return (
    <>
      <PageHeader title="Utilisateurs en ligne" subtitle="Les utilisateurs et bots connectés en ce moment." />
      <ComingSoon />
    </>
  );
}
