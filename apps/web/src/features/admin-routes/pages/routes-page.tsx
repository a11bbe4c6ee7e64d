import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function RoutesPage() {
  return (
    <>
      <PageHeader title="Itinéraires" subtitle="Les itinéraires suivis par les bots." />
      <ComingSoon />
    </>
  );
}
