import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function PermissionsPage() {
  return (
    <>
      <PageHeader title="Permissions" subtitle="Les permissions et leurs attributions." />
      <ComingSoon />
    </>
  );
}
