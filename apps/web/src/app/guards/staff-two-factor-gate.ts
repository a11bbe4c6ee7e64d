import { redirect } from 'react-router';
import { notifyInfo } from '../../lib/notify.ts';

const ENROLMENT_MESSAGE =
  'La double authentification est obligatoire pour l’administration : activez-la pour continuer.';

/**
 * Staff who must use two-factor (the `staffTwoFactorRequired` setting) and have not turned it on are
 * sent to enrol before the admin area opens. Comfort only: the server refuses their admin calls anyway.
 * Loaded on demand: the admin area's chunks, not the public pages', carry the account API.
 */
export async function staffTwoFactorGate(): Promise<null> {
  const [{ queryClient }, { twoFactorStatusQuery }, { TWO_FACTOR_SECTION_ID }] = await Promise.all([
    import('../../lib/query-client.ts'),
    import('../../features/account/api/two-factor.ts'),
    import('../../features/account/components/two-factor-section.ts'),
  ]);
  const status = await queryClient.fetchQuery(twoFactorStatusQuery).catch(() => null);
  if (status?.required && !status.enabled) {
    notifyInfo(ENROLMENT_MESSAGE);
    throw redirect(`/account#${TWO_FACTOR_SECTION_ID}`);
  }
  return null;
}
