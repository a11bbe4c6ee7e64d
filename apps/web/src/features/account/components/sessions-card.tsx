import { describeUserAgent, type MySession } from '@bot/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { mySessionsQuery, revokeMySessions } from '../api/account.ts';

/**
 * The user's own open sessions: device in words (the wording staff see on the user page), address,
 * last use, this one marked; any other can be signed out, or all of them at once.
 */
export function SessionsCard() {
  const sessions = useQuery(mySessionsQuery);
  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.current);
  // What is about to be signed out, waiting for confirmation: one session or all the others.
  const [pending, setPending] = useState<MySession | 'others' | null>(null);
  const confirm = async () => {
    const target = pending;
    setPending(null);
    if (!target) return;
    try {
      const revoked = await revokeMySessions(target === 'others' ? undefined : target.id);
      notifySuccess(revoked > 1 ? `${revoked} sessions déconnectées.` : 'Session déconnectée.');
    } catch {
      // shown by the API client
    }
    await sessions.refetch();
  };
  return (
    <SectionCard
      title="Sessions ouvertes"
      subheader="Les navigateurs connectés à votre compte. Déconnectez ceux que vous ne reconnaissez pas."
    >
      <ConfirmDialog
        open={pending !== null}
        title={pending === 'others' ? 'Déconnecter les autres sessions ?' : 'Déconnecter cette session ?'}
        confirmLabel="Déconnecter"
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      >
        {pending === 'others'
          ? 'Tous vos autres navigateurs sont déconnectés tout de suite ; celui-ci reste connecté.'
          : 'Ce navigateur est déconnecté tout de suite. Si vous ne le reconnaissez pas, changez aussi votre mot de passe.'}
      </ConfirmDialog>
      <List aria-label="Sessions ouvertes" disablePadding>
        {list.map((session) => (
          <ListItem
            key={session.id}
            divider
            disableGutters
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, py: 1.5 }}
          >
            <Box sx={{ flex: '1 1 14rem', minWidth: 0 }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography component="span" sx={{ fontWeight: 600 }} title={session.userAgent ?? undefined}>
                  {describeUserAgent(session.userAgent)}
                </Typography>
                {session.current ? <Chip size="small" color="success" label="Cette session" /> : null}
                {session.awaitingSecondFactor ? (
                  <Chip size="small" color="warning" label="Code de vérification attendu" />
                ) : null}
              </Box>
              <Typography variant="body2" color="text.secondary">
                Adresse {session.ip ?? 'inconnue'} · dernière activité le {formatDateTime(session.lastSeenAt)}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                Ouverte le {formatDateTime(session.createdAt)}
              </Typography>
            </Box>
            {session.current ? null : (
              <Button size="small" color="error" onClick={() => setPending(session)}>
                Déconnecter
              </Button>
            )}
          </ListItem>
        ))}
      </List>
      <Box sx={{ mt: 2 }}>
        <Button
          color="error"
          variant="outlined"
          disabled={others.length === 0}
          onClick={() => setPending('others')}
        >
          Déconnecter les autres sessions
        </Button>
      </Box>
    </SectionCard>
  );
}
