import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** Placeholder (title and navigation only) until its issue fills it; see apps/web/PAGES.md. */
export default function MyBotPage() {
  return (
    <>
      <PageHeader title="Mon bot" subtitle="Suivez votre bot en direct." />
      <ComingSoon />
    </>
  );
}
