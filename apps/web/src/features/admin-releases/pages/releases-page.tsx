import {
  formatFileSize,
  RELEASE_CHANNEL_LABELS,
  type Release,
  type ReleaseInput,
  ROLLOUT_STATE_LABELS,
} from '@bot/contracts';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { adminSettingsQuery } from '../../admin-settings/index.ts';
import { deleteRelease, fetchReleases, publishBuild, releaseKeys } from '../api/releases.ts';
import { AdoptionCard } from '../components/adoption-card.tsx';
import { PublishDialog } from '../components/publish-dialog.tsx';
import { RolloutDialog } from '../components/rollout-dialog.tsx';

const numberFormat = new Intl.NumberFormat('fr-FR');

/** /admin/releases: the builds of the bot customers download, and the minimum version agents need. */
export default function ReleasesPage() {
  const queryClient = useQueryClient();
  const releases = useQuery({ queryKey: releaseKeys.all, queryFn: fetchReleases });
  const settings = useQuery(adminSettingsQuery);
  const [isPublishing, setIsPublishing] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [withdrawing, setWithdrawing] = useState<Release | null>(null);
  const [managing, setManaging] = useState<Release | null>(null);
  /** The draft of an upload that failed: publishing the same file again resumes into it. */
  const [failedDraft, setFailedDraft] = useState<{ id: string; attempt: string } | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: releaseKeys.all });

  const onPublish = async (input: ReleaseInput & { file: File }) => {
    setProgress(0);
    // The same build tried again goes into the draft the failed attempt left.
    const attempt = `${input.version}|${input.file.name}|${input.file.size}|${input.file.lastModified}`;
    const draftId = failedDraft?.attempt === attempt ? failedDraft.id : undefined;
    try {
      const release = await publishBuild(
        input,
        { onProgress: setProgress, onDraft: (id) => setFailedDraft({ id, attempt }) },
        draftId,
      );
      setFailedDraft(null);
      notifySuccess(`Version ${release.version} publiée.`);
      setIsPublishing(false);
    } catch (error) {
      // The API client has shown its errors; a local one (no WebCrypto) is shown here.
      if (!(error instanceof ApiError)) notifyError((error as Error).message);
      // The draft is gone (withdrawn, or expired after 24 h): the next attempt starts a new one.
      else if (error.status === 404) setFailedDraft(null);
    } finally {
      setProgress(null);
      await refresh();
    }
  };

  const onWithdraw = async () => {
    if (!withdrawing) return;
    setIsBusy(true);
    try {
      await deleteRelease(withdrawing.id);
      notifySuccess(`Version ${withdrawing.version} supprimée.`);
      setWithdrawing(null);
      await refresh();
    } catch {
      // The API client has shown the message.
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Versions du bot"
        subtitle="Les versions que les clients téléchargent depuis leur espace."
      >
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setIsPublishing(true)}>
          Publier une version
        </Button>
      </PageHeader>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Version minimale acceptée :{' '}
        <strong data-testid="min-bot-version">{settings.data?.minBotVersion ?? '…'}</strong>. Un bot plus
        ancien est refusé avec le lien de téléchargement.{' '}
        <Link component={RouterLink} to="/admin/settings">
          Modifier dans les paramètres
        </Link>
      </Typography>
      {releases.data?.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Typography color="text.secondary">
            Aucune version publiée : les clients ne peuvent pas encore télécharger le bot.
          </Typography>
        </Paper>
      ) : (
        // Wider than a phone: it scrolls sideways, so the keyboard must be able to reach it.
        <TableContainer
          component={Paper}
          variant="outlined"
          tabIndex={0}
          role="region"
          aria-label="Versions publiées"
        >
          <Table aria-label="Versions du bot">
            <TableHead>
              <TableRow>
                <TableCell>Version</TableCell>
                <TableCell>Fichier</TableCell>
                <TableCell>SHA-256</TableCell>
                <TableCell>Publiée le</TableCell>
                <TableCell>Déploiement</TableCell>
                <TableCell align="right">Téléchargements</TableCell>
                <TableCell align="right">Actions</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {releases.data?.map((release) => (
                <ReleaseRow
                  key={release.id}
                  release={release}
                  onWithdraw={() => setWithdrawing(release)}
                  onManage={() => setManaging(release)}
                />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <AdoptionCard />
      {managing ? (
        <RolloutDialog
          release={managing}
          onClose={() => setManaging(null)}
          onChanged={() => void refresh()}
        />
      ) : null}
      {isPublishing ? (
        <PublishDialog progress={progress} onClose={() => setIsPublishing(false)} onSubmit={onPublish} />
      ) : null}
      <ConfirmDialog
        open={withdrawing !== null}
        title={`Supprimer la version ${withdrawing?.version ?? ''} ?`}
        confirmLabel="Supprimer"
        isBusy={isBusy}
        onConfirm={onWithdraw}
        onCancel={() => setWithdrawing(null)}
      >
        {withdrawing?.publishedAt
          ? 'Son fichier est supprimé : les liens déjà donnés cessent de fonctionner et les clients reçoivent la version précédente. Les bots déjà installés continuent de tourner (pour les faire revenir à la précédente, retirez-la plutôt depuis « Déploiement »).'
          : 'Ce brouillon et les parties du fichier déjà envoyées sont supprimés. Aucun client ne l’a reçu.'}
      </ConfirmDialog>
    </>
  );
}

function ReleaseRow({
  release,
  onWithdraw,
  onManage,
}: {
  release: Release;
  onWithdraw: () => void;
  onManage: () => void;
}) {
  const { rollout } = release;
  return (
    <TableRow>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <strong>{release.version}</strong>
          <Chip
            size="small"
            label={RELEASE_CHANNEL_LABELS[release.channel]}
            color={release.channel === 'beta' ? 'warning' : 'default'}
          />
        </Stack>
      </TableCell>
      <TableCell>
        {release.fileName}
        {release.size !== null ? (
          <Typography variant="body2" color="text.secondary">
            {formatFileSize(release.size)}
          </Typography>
        ) : null}
      </TableCell>
      <TableCell>
        {release.sha256 ? (
          <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
            <Tooltip title={release.sha256}>
              <code data-testid="release-sha256" data-sha256={release.sha256}>
                {release.sha256.slice(0, 16)}…
              </code>
            </Tooltip>
            <IconButton
              size="small"
              aria-label={`Copier l’empreinte de ${release.version}`}
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(release.sha256 ?? '')
                  .then(() => notifySuccess('Empreinte copiée.'))
              }
            >
              <ContentCopyIcon fontSize="inherit" />
            </IconButton>
          </Stack>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell>
        {release.publishedAt ? (
          formatDateTime(release.publishedAt)
        ) : (
          <Chip size="small" variant="outlined" label="Brouillon : envoi incomplet" />
        )}
      </TableCell>
      <TableCell>
        {release.publishedAt ? (
          <Button
            size="small"
            variant="outlined"
            color={rollout.state === 'halted' || rollout.state === 'yanked' ? 'error' : 'inherit'}
            onClick={onManage}
            aria-label={`Déploiement de la version ${release.version} : ${ROLLOUT_STATE_LABELS[rollout.state]}`}
            data-testid="rollout-manage"
            data-state={rollout.state}
          >
            {ROLLOUT_STATE_LABELS[rollout.state]}
            {rollout.state === 'rolling' || rollout.state === 'paused' ? ` · ${rollout.percent} %` : ''}
          </Button>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell align="right">{numberFormat.format(release.downloads)}</TableCell>
      <TableCell align="right">
        <Tooltip title="Supprimer">
          <IconButton
            aria-label={`Supprimer la version ${release.version}`}
            color="error"
            onClick={onWithdraw}
          >
            <DeleteIcon />
          </IconButton>
        </Tooltip>
      </TableCell>
    </TableRow>
  );
}
