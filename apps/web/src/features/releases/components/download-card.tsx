import {
  formatFileSize,
  type LatestRelease,
  RELEASE_CHANNEL_LABELS,
  RELEASE_CHANNELS,
  type ReleaseChannel,
} from '@bot/contracts';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useAuthStore } from '../../../lib/auth-store.ts';
import { formatDate } from '../../../lib/dates.ts';
import { downloadHref, useLatestRelease } from '../api/latest-release.ts';

const CHANNEL_KEY = 'bot-release-channel';

function storedChannel(): ReleaseChannel {
  const value = localStorage.getItem(CHANNEL_KEY);
  return value === 'beta' ? 'beta' : 'stable';
}

/**
 * "Télécharger le bot": the newest build of the customer's channel (remembered on this browser),
 * for holders of a bot permission. Others are told why and what to do.
 */
export default function DownloadCard() {
  const canDownload = useAuthStore((state) =>
    state.permissions.some((name) => name === 'can_useGathering' || name === 'can_useTreasure'),
  );
  const [channel, setChannel] = useState<ReleaseChannel>(storedChannel);
  const state = useLatestRelease(channel, canDownload);

  const chooseChannel = (next: ReleaseChannel | null) => {
    if (!next) return;
    localStorage.setItem(CHANNEL_KEY, next);
    setChannel(next);
  };

  return (
    <Card variant="outlined" component="section" aria-labelledby="download-title" data-testid="download-card">
      <CardHeader
        title="Télécharger le bot"
        slotProps={{ title: { id: 'download-title', variant: 'h2', sx: { fontSize: '1.2rem' } } }}
        action={
          canDownload ? (
            <ToggleButtonGroup
              size="small"
              exclusive
              value={channel}
              onChange={(_event, next: ReleaseChannel | null) => chooseChannel(next)}
              aria-label="Canal de mise à jour"
            >
              {RELEASE_CHANNELS.map((value) => (
                <ToggleButton key={value} value={value}>
                  {RELEASE_CHANNEL_LABELS[value]}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          ) : null
        }
      />
      <CardContent sx={{ pt: 0 }}>
        {!canDownload ? (
          <>
            <Typography color="text.secondary">
              Le téléchargement est réservé aux comptes ayant une offre active (récolte ou chasse au trésor).
            </Typography>
            <Button component={RouterLink} to="/account/marketplace" sx={{ mt: 1, px: 0 }}>
              Voir les offres
            </Button>
          </>
        ) : state.status === 'loading' ? (
          <Typography color="text.secondary">Recherche de la dernière version…</Typography>
        ) : state.status === 'failed' ? (
          <Typography color="error" role="alert">
            {state.message}
          </Typography>
        ) : state.latest === null ? (
          <Typography color="text.secondary">
            Aucune version n’est encore disponible sur ce canal. Revenez bientôt.
          </Typography>
        ) : (
          <ReleaseDetails latest={state.latest} />
        )}
      </CardContent>
    </Card>
  );
}

function ReleaseDetails({ latest }: { latest: LatestRelease }) {
  const { release, running } = latest;
  return (
    <Box>
      <Typography>
        Version <strong data-testid="download-version">{release.version}</strong> (
        {RELEASE_CHANNEL_LABELS[release.channel]}) · {formatFileSize(release.size ?? 0)} · publiée le{' '}
        {formatDate(release.publishedAt)}
      </Typography>
      {running?.isOutdated ? (
        <Typography color="warning.main" sx={{ mt: 0.5 }} data-testid="download-outdated">
          Votre bot tourne en version {running.version} : installez la version {release.version}.
        </Typography>
      ) : null}
      {release.notes ? (
        <Typography color="text.secondary" sx={{ mt: 1, whiteSpace: 'pre-line' }}>
          {release.notes}
        </Typography>
      ) : null}
      <Button
        component="a"
        href={downloadHref(latest)}
        download={release.fileName}
        variant="contained"
        startIcon={<DownloadIcon />}
        sx={{ mt: 2 }}
      >
        Télécharger {release.fileName}
      </Button>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5, overflowWrap: 'anywhere' }}>
        Empreinte SHA-256 (pour vérifier le fichier) :{' '}
        <code data-testid="download-sha256">{release.sha256}</code>
      </Typography>
    </Box>
  );
}
