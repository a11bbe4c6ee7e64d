import { describeUserAgent, type OnlineBot, type OnlineSession } from '@bot/contracts';
import LogoutIcon from '@mui/icons-material/Logout';
import PowerSettingsNewIcon from '@mui/icons-material/PowerSettingsNew';
import SettingsRemoteIcon from '@mui/icons-material/SettingsRemote';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { AdminTable, adminTableKey } from '../../../components/admin-table/index.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useIsPhone } from '../../../components/scroll-table.tsx';
import { SectionCard } from '../../../components/section-card.tsx';
import { dateTimeSeconds as dateTimeFormat } from '../../../lib/dates.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import {
  kickBot,
  revokeSession,
  USERS_ONLINE_BOTS,
  USERS_ONLINE_REFRESH_MS,
  USERS_ONLINE_SESSIONS,
} from '../api/users-online.ts';
import { BotCommandsDialog } from '../components/bot-commands-dialog.tsx';

const relative = new Intl.RelativeTimeFormat('fr-FR', { numeric: 'auto' });

function formatDate(value: string | null | undefined): string {
  return value ? dateTimeFormat.format(new Date(value)) : '—';
}

/** "il y a 5 minutes" from an ISO date. */
function since(value: string): string {
  const seconds = Math.round((Date.parse(value) - Date.now()) / 1000);
  if (Math.abs(seconds) < 60) return relative.format(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return relative.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 48) return relative.format(hours, 'hour');
  return relative.format(Math.round(hours / 24), 'day');
}

type Pending = { kind: 'bot'; bot: OnlineBot } | { kind: 'session'; session: OnlineSession } | null;

/** /admin/usersOnline: connected bots and signed-in web sessions, refreshed live; kick and revoke. */
export default function UsersOnlinePage() {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);
  const [commanded, setCommanded] = useState<OnlineBot | null>(null);
  const [isWorking, setIsWorking] = useState(false);
  const [versionSearch, setVersionSearch] = useState('');
  const versionFilter = useDeferredValue(versionSearch.trim());
  // Narrower minimum widths on a phone: the kick and revoke buttons stay on screen.
  const isPhone = useIsPhone();

  useEffect(() => {
    const timer = window.setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: adminTableKey(USERS_ONLINE_BOTS) });
      void queryClient.invalidateQueries({ queryKey: adminTableKey(USERS_ONLINE_SESSIONS) });
    }, USERS_ONLINE_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [queryClient]);

  const botColumns = useMemo<GridColDef<OnlineBot>[]>(
    () => [
      { field: 'ownerUsername', headerName: 'Propriétaire', flex: 1, minWidth: isPhone ? 100 : 140 },
      {
        field: 'hwid',
        headerName: 'HWID',
        flex: 1.4,
        minWidth: 180,
        renderCell: ({ value }) => <span style={{ fontFamily: 'monospace' }}>{value}</span>,
      },
      { field: 'version', headerName: 'Version', width: 120 },
      {
        field: 'connectedAt',
        headerName: 'Connecté depuis',
        width: 170,
        renderCell: ({ value }) => <span title={formatDate(value)}>{since(value)}</span>,
      },
      {
        field: 'accounts',
        headerName: 'Comptes de jeu',
        flex: 1.2,
        minWidth: isPhone ? 120 : 160,
        renderCell: ({ row }) => `${row.accounts} · ${row.accountNames.join(', ')}`,
      },
      {
        field: 'lastSeenAt',
        headerName: 'Dernier signe de vie',
        width: 170,
        renderCell: ({ value }) => <span title={formatDate(value)}>{since(value)}</span>,
      },
      {
        field: 'actions',
        headerName: 'Actions',
        width: 110,
        sortable: false,
        renderCell: ({ row }) => (
          <>
            <Tooltip title="Commandes à distance">
              <IconButton
                aria-label={`Commandes à distance du bot ${row.hwid}`}
                data-testid="users-online-commands-open"
                onClick={(event) => {
                  event.stopPropagation();
                  setCommanded(row);
                }}
              >
                <SettingsRemoteIcon />
              </IconButton>
            </Tooltip>
            <Tooltip title="Déconnecter le bot">
              <IconButton
                aria-label={`Déconnecter le bot ${row.hwid}`}
                color="warning"
                onClick={(event) => {
                  event.stopPropagation();
                  setPending({ kind: 'bot', bot: row });
                }}
              >
                <PowerSettingsNewIcon />
              </IconButton>
            </Tooltip>
          </>
        ),
      },
    ],
    [isPhone],
  );

  const sessionColumns = useMemo<GridColDef<OnlineSession>[]>(
    () => [
      { field: 'username', headerName: 'Utilisateur', flex: 1, minWidth: isPhone ? 100 : 140 },
      { field: 'ip', headerName: 'Adresse IP', width: 140 },
      {
        field: 'userAgent',
        headerName: 'Appareil',
        flex: 1.5,
        minWidth: 180,
        sortable: false,
        renderCell: ({ value }) => <span title={value ?? ''}>{describeUserAgent(value)}</span>,
      },
      {
        field: 'createdAt',
        headerName: 'Connecté le',
        width: 170,
        renderCell: ({ value }) => formatDate(value),
      },
      {
        field: 'lastSeenAt',
        headerName: 'Dernière activité',
        width: isPhone ? 120 : 160,
        renderCell: ({ value }) => <span title={formatDate(value)}>{since(value)}</span>,
      },
      {
        field: 'expiresAt',
        headerName: 'Expire le',
        width: 170,
        renderCell: ({ value }) => formatDate(value),
      },
      { field: 'liveSockets', headerName: 'Direct', width: 90, sortable: false },
      {
        field: 'actions',
        headerName: 'Actions',
        width: 70,
        sortable: false,
        renderCell: ({ row }) => (
          <Tooltip title="Fermer la session">
            <IconButton
              aria-label={`Fermer la session de ${row.username}`}
              color="warning"
              onClick={(event) => {
                event.stopPropagation();
                setPending({ kind: 'session', session: row });
              }}
            >
              <LogoutIcon />
            </IconButton>
          </Tooltip>
        ),
      },
    ],
    [isPhone],
  );

  const onConfirm = async () => {
    if (!pending) return;
    setIsWorking(true);
    try {
      if (pending.kind === 'bot') {
        await kickBot(pending.bot.hwid);
        notifySuccess('Bot déconnecté.');
        await queryClient.invalidateQueries({ queryKey: adminTableKey(USERS_ONLINE_BOTS) });
      } else {
        await revokeSession(pending.session.id);
        notifySuccess('Session fermée.');
        await queryClient.invalidateQueries({ queryKey: adminTableKey(USERS_ONLINE_SESSIONS) });
      }
      setPending(null);
    } catch {
      // The API client has shown the message.
    } finally {
      setIsWorking(false);
    }
  };

  return (
    <>
      <PageHeader title="Utilisateurs en ligne" subtitle="Les utilisateurs et bots connectés en ce moment." />
      <Stack spacing={3}>
        <SectionCard title="Bots connectés" subheader="Mis à jour toutes les 3 secondes.">
          <AdminTable<OnlineBot>
            endpoint={USERS_ONLINE_BOTS}
            empty={{ text: 'Aucun bot connecté en ce moment : ils apparaissent ici dès leur connexion.' }}
            columns={botColumns}
            getRowId={(row) => row.hwid}
            // On a phone: who, which game accounts, since when, and the kick button.
            phoneHiddenColumns={['hwid', 'version', 'connectedAt', 'lastSeenAt']}
            initialSort="-connectedAt"
            searchPlaceholder="Propriétaire, HWID, compte…"
            label="Bots connectés"
            filters={{ version: versionFilter }}
            toolbar={
              <TextField
                size="small"
                label="Version du bot"
                placeholder="ex. 1.4"
                value={versionSearch}
                onChange={(event) => setVersionSearch(event.target.value)}
                sx={{ width: 150 }}
              />
            }
          />
        </SectionCard>
        <SectionCard title="Sessions web" subheader="Sessions actives ces 30 dernières minutes.">
          <AdminTable<OnlineSession>
            endpoint={USERS_ONLINE_SESSIONS}
            empty={{ text: 'Aucune session active ces 30 dernières minutes.' }}
            columns={sessionColumns}
            secondaryColumns={['userAgent', 'expiresAt']}
            phoneHiddenColumns={['ip', 'createdAt', 'liveSockets']}
            initialSort="-lastSeenAt"
            searchPlaceholder="Utilisateur ou adresse IP…"
            label="Sessions web"
          />
        </SectionCard>
        <Typography variant="caption" color="text.secondary">
          Déconnecter un bot l’arrête sur le PC du client ; fermer une session déconnecte ce navigateur.
        </Typography>
      </Stack>
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'bot' ? 'Déconnecter ce bot ?' : 'Fermer cette session ?'}
        confirmLabel={pending?.kind === 'bot' ? 'Déconnecter' : 'Fermer la session'}
        isBusy={isWorking}
        onConfirm={onConfirm}
        onCancel={() => setPending(null)}
      >
        {pending?.kind === 'bot'
          ? `Le bot de ${pending.bot.ownerUsername} (${pending.bot.hwid}) sera déconnecté et s’arrêtera.`
          : pending?.kind === 'session'
            ? `${pending.session.username} sera déconnecté de ce navigateur (${pending.session.ip ?? 'IP inconnue'}).`
            : ''}
      </ConfirmDialog>
      <BotCommandsDialog bot={commanded} onClose={() => setCommanded(null)} />
    </>
  );
}
