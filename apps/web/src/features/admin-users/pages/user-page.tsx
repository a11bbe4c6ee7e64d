import { useParams } from 'react-router';
import { ComingSoon, PageHeader } from '../../../components/page-header.tsx';

/** /admin/users/:id — placeholder until the back-office issue fills it. */
export default function UserPage() {
  const { id } = useParams();
  return (
    <>
      <PageHeader title="Utilisateur" subtitle="Le détail d’un compte utilisateur." />
      <ComingSoon>Utilisateur {id} : le détail arrive bientôt.</ComingSoon>
    </>
  );
}
