import {
  formatFileSize,
  RELEASE_CHANNEL_LABELS,
  RELEASE_CHANNELS,
  RELEASE_MAX_PARTS,
  RELEASE_PART_BYTES,
  type ReleaseChannel,
  type ReleaseInput,
  releaseInput,
} from '@bot/contracts';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';

const MAX_BYTES = RELEASE_PART_BYTES * RELEASE_MAX_PARTS;

/** `bot-agent-1.4.2.zip` → `1.4.2`: the version field starts from the file's name. */
function versionInName(name: string): string {
  return /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?)/.exec(name)?.[1] ?? '';
}

/** Chooses the build file and describes it; the page uploads it and shows the progress here. */
export function PublishDialog({
  progress,
  onClose,
  onSubmit,
}: {
  /** 0..1 while uploading, null before. */
  progress: number | null;
  onClose: () => void;
  onSubmit: (input: ReleaseInput & { file: File }) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [version, setVersion] = useState('');
  const [channel, setChannel] = useState<ReleaseChannel>('stable');
  const [notes, setNotes] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const isUploading = progress !== null;

  const parsed = releaseInput.safeParse({ version, channel, notes, fileName: file?.name ?? '' });
  const problemOf = (field: string) =>
    submitted && !parsed.success
      ? parsed.error.issues.find((issue) => issue.path[0] === field)?.message
      : undefined;
  const fileProblem = !file
    ? 'Choisissez le fichier du bot.'
    : file.size === 0
      ? 'Ce fichier est vide.'
      : file.size > MAX_BYTES
        ? `Fichier trop gros (${formatFileSize(MAX_BYTES)} au plus).`
        : (problemOf('fileName') ?? null);

  return (
    <Dialog open onClose={isUploading ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Publier une version du bot</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="release-form"
          spacing={2}
          sx={{ pt: 1 }}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitted(true);
            if (parsed.success && file && !fileProblem) onSubmit({ ...parsed.data, file });
          }}
        >
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Button
              component="label"
              variant="outlined"
              startIcon={<UploadFileIcon />}
              disabled={isUploading}
            >
              Choisir le fichier
              <input
                hidden
                type="file"
                name="file"
                aria-label="Fichier du bot"
                onChange={(event) => {
                  const chosen = event.target.files?.[0] ?? null;
                  setFile(chosen);
                  if (chosen && !version) setVersion(versionInName(chosen.name));
                }}
              />
            </Button>
            <Typography
              color={submitted && fileProblem ? 'error' : 'text.secondary'}
              sx={{ minWidth: 0 }}
              noWrap
            >
              {file ? `${file.name} — ${formatFileSize(file.size)}` : 'Aucun fichier choisi'}
            </Typography>
          </Stack>
          {submitted && fileProblem ? (
            <Typography role="alert" color="error" variant="body2">
              {fileProblem}
            </Typography>
          ) : null}
          <TextField
            label="Version"
            name="version"
            placeholder="1.4.0 ou 1.5.0-beta.1"
            value={version}
            disabled={isUploading}
            onChange={(event) => setVersion(event.target.value)}
            error={Boolean(problemOf('version'))}
            helperText={problemOf('version') ?? 'Numérotation sémantique : majeure.mineure.correctif'}
          />
          <TextField
            select
            label="Canal"
            name="channel"
            value={channel}
            disabled={isUploading}
            onChange={(event) => setChannel(event.target.value as ReleaseChannel)}
            helperText="Les clients du canal bêta reçoivent aussi les versions stables plus récentes."
          >
            {RELEASE_CHANNELS.map((value) => (
              <MenuItem key={value} value={value}>
                {RELEASE_CHANNEL_LABELS[value]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Notes de version"
            name="notes"
            multiline
            minRows={3}
            value={notes}
            disabled={isUploading}
            onChange={(event) => setNotes(event.target.value)}
            error={Boolean(problemOf('notes'))}
            helperText={problemOf('notes') ?? 'Ce qui change, montré aux clients avec le téléchargement.'}
          />
          {isUploading ? (
            <Stack spacing={0.5}>
              <LinearProgress variant="determinate" value={progress * 100} aria-label="Envoi du fichier" />
              <Typography variant="body2" color="text.secondary" role="status">
                {progress === 0 ? 'Calcul de l’empreinte…' : `Envoi : ${Math.round(progress * 10) * 10} %`}
              </Typography>
            </Stack>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isUploading}>
          Annuler
        </Button>
        <Button type="submit" form="release-form" variant="contained" disabled={isUploading}>
          Publier
        </Button>
      </DialogActions>
    </Dialog>
  );
}
