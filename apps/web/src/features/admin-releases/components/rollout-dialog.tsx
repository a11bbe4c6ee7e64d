import {
  HEALTH_FIGURE_LABELS,
  type Release,
  type ReleaseRolloutInput,
  ROLLOUT_STATE_LABELS,
  type RolloutStep,
} from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { changeRollout, yankRelease } from '../api/releases.ts';

const figureFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 2 });

/** "10 % → 50 % après 24 h → 100 % après 48 h": the steps as staff type them. */
function parseSteps(text: string): RolloutStep[] | null {
  const steps: RolloutStep[] = [];
  for (const part of text
    .split(/[,;]/)
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const match = /^(\d+)\s*%?\s*(?:après|apres|@)\s*(\d+)\s*h$/i.exec(part);
    if (!match) return null;
    steps.push({ percent: Number(match[1]), afterHours: Number(match[2]) });
  }
  return steps;
}

const stepsText = (steps: readonly RolloutStep[]) =>
  steps.map((step) => `${step.percent} % après ${step.afterHours} h`).join(', ');

/**
 * A release's rollout (decision 910): its state, why it halted (both versions' figures side by
 * side), its share and steps, pause or resume, and the withdrawal that sends its agents back.
 */
export function RolloutDialog({
  release,
  onClose,
  onChanged,
}: {
  release: Release;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { rollout } = release;
  const [percent, setPercent] = useState(String(rollout.percent));
  const [steps, setSteps] = useState(stepsText(rollout.steps));
  const [reason, setReason] = useState('');
  const [isConfirmingYank, setConfirmingYank] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const parsedSteps = parseSteps(steps);
  const share = /^\d{1,3}$/.test(percent.trim()) ? Number(percent) : Number.NaN;
  const isShareValid = share >= 0 && share <= 100;
  const isYanked = rollout.state === 'yanked';
  const nextStep = nextStepOf(release);

  const run = async (action: () => Promise<Release>, message: string) => {
    setBusy(true);
    try {
      await action();
      notifySuccess(message);
      onChanged();
      onClose();
    } catch {
      // The API client has shown the message.
    } finally {
      setBusy(false);
    }
  };
  const change = (input: ReleaseRolloutInput, message: string) =>
    run(() => changeRollout(release.id, input), message);

  return (
    <Dialog open onClose={isBusy ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Déploiement de la version {release.version}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography data-testid="rollout-state" data-state={rollout.state}>
            {ROLLOUT_STATE_LABELS[rollout.state]}
            {isYanked ? '' : ` : ${rollout.percent} % des bots du canal`}
            {rollout.changedAt ? ` (dernier changement le ${formatDateTime(rollout.changedAt)})` : ''}
          </Typography>
          {nextStep ? (
            <Typography color="text.secondary" data-testid="rollout-next-step">
              Prochaine étape : {nextStep.percent} % vers le {formatDateTime(nextStep.at)}.
            </Typography>
          ) : null}
          {rollout.yankReason ? <Alert severity="warning">Retirée : {rollout.yankReason}</Alert> : null}
          {rollout.halt ? <HaltReport release={release} /> : null}
          {isYanked ? null : (
            <>
              <TextField
                label="Part des bots (%)"
                value={percent}
                onChange={(event) => setPercent(event.target.value)}
                error={!isShareValid}
                helperText={
                  isShareValid ? '100 : la version est proposée à tous.' : 'Un nombre entier entre 0 et 100.'
                }
                slotProps={{ htmlInput: { inputMode: 'numeric' } }}
                sx={{ maxWidth: 260 }}
              />
              <TextField
                label="Étapes suivantes"
                value={steps}
                onChange={(event) => setSteps(event.target.value)}
                error={parsedSteps === null}
                helperText={
                  parsedSteps === null
                    ? 'Écrivez par exemple : 50 % après 24 h, 100 % après 24 h'
                    : 'Chaque durée compte depuis l’étape précédente. Par exemple : 50 % après 24 h, 100 % après 24 h.'
                }
                fullWidth
              />
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
                <Button
                  variant="contained"
                  disabled={isBusy || parsedSteps === null || !isShareValid}
                  onClick={() =>
                    void change(
                      {
                        percent: share,
                        steps: parsedSteps ?? [],
                        ...(rollout.state === 'halted' ? { state: 'rolling' as const } : {}),
                      },
                      `Déploiement de ${release.version} : ${share} %.`,
                    )
                  }
                >
                  {rollout.state === 'halted' ? 'Reprendre le déploiement' : 'Enregistrer'}
                </Button>
                {rollout.state === 'rolling' ? (
                  <Button
                    disabled={isBusy}
                    onClick={() => void change({ state: 'paused' }, 'Déploiement en pause.')}
                  >
                    Mettre en pause
                  </Button>
                ) : null}
                {rollout.state === 'paused' ? (
                  <Button
                    disabled={isBusy}
                    onClick={() => void change({ state: 'rolling' }, 'Déploiement repris.')}
                  >
                    Reprendre
                  </Button>
                ) : null}
              </Stack>
              <Stack spacing={1}>
                <TextField
                  label="Raison du retrait"
                  value={reason}
                  onChange={(event) => setReason(event.target.value)}
                  helperText="Retirée, la version n’est plus proposée et les bots qui l’ont installée reviennent à la précédente."
                />
                <Button
                  color="error"
                  variant="outlined"
                  disabled={isBusy || reason.trim() === ''}
                  onClick={() => setConfirmingYank(true)}
                >
                  Retirer cette version
                </Button>
              </Stack>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isBusy}>
          Fermer
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={isConfirmingYank}
        title={`Retirer la version ${release.version} ?`}
        confirmLabel="Retirer la version"
        isBusy={isBusy}
        onConfirm={() =>
          void run(() => yankRelease(release.id, reason), `Version ${release.version} retirée.`)
        }
        onCancel={() => setConfirmingYank(false)}
      >
        C’est définitif : elle n’est plus proposée, les liens déjà donnés ne la téléchargent plus et les bots
        qui l’ont installée reviennent à la version précédente. Pour corriger, publiez une nouvelle version.
      </ConfirmDialog>
    </Dialog>
  );
}

/** When the next step of a rollout in progress is due (each step counts from the change before). */
function nextStepOf(release: Release): { percent: number; at: string } | null {
  const { rollout } = release;
  const next = rollout.steps.find((step) => step.percent > rollout.percent);
  const since = rollout.changedAt ?? release.publishedAt;
  if (rollout.state !== 'rolling' || !next || !since) return null;
  return {
    percent: next.percent,
    at: new Date(Date.parse(since) + next.afterHours * 3_600_000).toISOString(),
  };
}

/** Why the rollout stopped itself: each figure of the new version beside the previous one's. */
function HaltReport({ release }: { release: Release }) {
  const halt = release.rollout.halt;
  if (!halt) return null;
  const baseline = halt.baselineVersion ?? 'Autres versions';
  return (
    <Stack spacing={1}>
      <Alert severity={release.rollout.state === 'halted' ? 'error' : 'info'}>
        Arrêté automatiquement le {formatDateTime(halt.at)} : ses {halt.releaseBots} bots font pire que{' '}
        {halt.baselineVersion
          ? `les ${halt.baselineBots} de la version ${halt.baselineVersion}`
          : `les ${halt.baselineBots} des autres versions (aucun bot ne tourne sur la version précédente)`}
        .
      </Alert>
      <Table size="small" aria-label="Santé comparée des deux versions" data-testid="rollout-halt">
        <TableHead>
          <TableRow>
            <TableCell>Mesure</TableCell>
            <TableCell align="right">{release.version}</TableCell>
            <TableCell align="right">{baseline}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {halt.figures.map((figure) => (
            <TableRow key={figure.name} data-exceeded={figure.exceeded}>
              <TableCell>{HEALTH_FIGURE_LABELS[figure.name]}</TableCell>
              <TableCell
                align="right"
                sx={{
                  color: figure.exceeded ? 'error.light' : undefined,
                  fontWeight: figure.exceeded ? 700 : undefined,
                }}
              >
                {figureFormat.format(figure.release)}
              </TableCell>
              <TableCell align="right">{figureFormat.format(figure.baseline)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Stack>
  );
}
