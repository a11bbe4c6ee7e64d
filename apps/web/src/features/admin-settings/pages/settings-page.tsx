import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function SettingsPage() {
  return (
    <>
      <PageHeader title="Paramètres" subtitle="Les paramètres du site." />
      <ComingSoon />
    </>
  );
}
