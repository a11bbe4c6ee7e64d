import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { dateLong as dateFormat } from '../../../lib/dates.ts';
import { meKeys } from '../../auth/index.ts';
import { BotKeyCard } from '../components/bot-key-card.tsx';
import { DiscordCard } from '../components/discord-card.tsx';
import { HwidCard } from '../components/hwid-card.tsx';
import { PasswordCard } from '../components/password-card.tsx';
import { SessionsCard } from '../components/sessions-card.tsx';
import { TwoFactorCard } from '../components/two-factor-card.tsx';

/** /account: the account menu (docs/specification.md §6: Discord id, hwid, password, logout). */
export default function AccountPage() {
  const user = useAuthStore((state) => state.user);
  const queryClient = useQueryClient();
  const refreshUser = () => void queryClient.invalidateQueries({ queryKey: meKeys.info() });
  // `/account#double-authentification` (sent there by the admin area): show that card.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView({ block: 'start' });
  }, [hash]);

  return (
    <>
      {/* Signing out is the menu's last item: one "Se déconnecter" in the tab order, not two. */}
      <PageHeader title="Mon compte" subtitle={user ? `Bonjour ${user.username} !` : undefined} />
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
        <SectionCard title="Profil">
          <Stack spacing={1}>
            <Typography>
              <strong>Nom d’utilisateur :</strong>{' '}
              <span data-testid="profile-username">{user?.username}</span>
            </Typography>
            <Typography>
              <strong>E-mail :</strong> {user?.email}
            </Typography>
            {user?.createdAt ? (
              <Typography>
                <strong>Membre depuis :</strong> {dateFormat.format(new Date(user.createdAt))}
              </Typography>
            ) : null}
            {user?.referral ? (
              <Typography>
                <strong>Parrain :</strong> {user.referral}
              </Typography>
            ) : null}
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {user?.Policy.IsAdministrator ? <Chip color="secondary" label="Administrateur" /> : null}
              {user?.roles.map((role) => (
                <Chip key={role.id} label={role.name} variant="outlined" />
              ))}
            </Stack>
          </Stack>
        </SectionCard>
        <DiscordCard onChanged={refreshUser} />
        <HwidCard onChanged={refreshUser} />
        <BotKeyCard />
        <PasswordCard />
        <TwoFactorCard />
        <SessionsCard />
      </Box>
    </>
  );
}
