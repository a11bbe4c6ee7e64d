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
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { schemaResolver } from '../../../lib/schema-resolver.ts';

const MAX_BYTES = RELEASE_PART_BYTES * RELEASE_MAX_PARTS;

/** `bot-agent-1.4.2.zip` → `1.4.2`: the version field starts from the file's name. */
function versionInName(name: string): string {
  return /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?)/.exec(name)?.[1] ?? '';
}

/** The contracts' release fields, plus the file itself (its size checked before any upload). */
const publishFormSchema = releaseInput.extend({
  file: z
    .custom<File | null>((value) => value instanceof File, 'Choisissez le fichier du bot.')
    .refine((file) => file !== null && file.size > 0, 'Ce fichier est vide.')
    .refine(
      (file) => file !== null && file.size <= MAX_BYTES,
      `Fichier trop gros (${formatFileSize(MAX_BYTES)} au plus).`,
    ),
});
type PublishFields = z.infer<typeof publishFormSchema>;

const EMPTY: PublishFields = {
  version: '',
  channel: 'stable',
  notes: '',
  fileName: '',
  minAgentVersion: null,
  file: null,
};

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
  const form = useForm<PublishFields>({ resolver: schemaResolver(publishFormSchema), defaultValues: EMPTY });
  const { errors, isSubmitted } = form.formState;
  const file = form.watch('file');
  const fileProblem = errors.file?.message ?? errors.fileName?.message;
  const isUploading = progress !== null;
  const chooseFile = (chosen: File | null) => {
    form.setValue('file', chosen, { shouldValidate: isSubmitted });
    form.setValue('fileName', chosen?.name ?? '', { shouldValidate: isSubmitted });
    if (chosen && !form.getValues('version')) form.setValue('version', versionInName(chosen.name));
  };
  const submit = form.handleSubmit(({ file: chosen, ...input }) => {
    if (chosen) onSubmit({ ...input, file: chosen });
  });

  return (
    <Dialog open onClose={isUploading ? undefined : onClose} fullWidth maxWidth="sm">
      <DialogTitle>Publier une version du bot</DialogTitle>
      <DialogContent>
        <Stack component="form" id="release-form" spacing={2} sx={{ pt: 1 }} noValidate onSubmit={submit}>
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
                onChange={(event) => chooseFile(event.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography color={fileProblem ? 'error' : 'text.secondary'} sx={{ minWidth: 0 }} noWrap>
              {file ? `${file.name} — ${formatFileSize(file.size)}` : 'Aucun fichier choisi'}
            </Typography>
          </Stack>
          {fileProblem ? (
            <Typography role="alert" color="error" variant="body2">
              {fileProblem}
            </Typography>
          ) : null}
          <TextField
            {...form.register('version')}
            label="Version"
            placeholder="1.4.0 ou 1.5.0-beta.1"
            disabled={isUploading}
            error={errors.version !== undefined}
            helperText={errors.version?.message ?? 'Numérotation sémantique : majeure.mineure.correctif'}
          />
          <Controller
            control={form.control}
            name="channel"
            render={({ field }) => (
              <TextField
                select
                label="Canal"
                name={field.name}
                value={field.value}
                disabled={isUploading}
                onChange={(event) => field.onChange(event.target.value as ReleaseChannel)}
                onBlur={field.onBlur}
                helperText="Les clients du canal bêta reçoivent aussi les versions stables plus récentes."
              >
                {RELEASE_CHANNELS.map((value) => (
                  <MenuItem key={value} value={value}>
                    {RELEASE_CHANNEL_LABELS[value]}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
          <TextField
            {...form.register('minAgentVersion')}
            label="Version minimale de l’agent pour s’y mettre à jour (facultatif)"
            error={errors.minAgentVersion !== undefined}
            helperText={
              errors.minAgentVersion?.message ??
              'Inscrite dans le manifeste signé : un agent plus ancien la télécharge à la main.'
            }
          />
          <TextField
            {...form.register('notes')}
            label="Notes de version"
            multiline
            minRows={3}
            disabled={isUploading}
            error={errors.notes !== undefined}
            helperText={errors.notes?.message ?? 'Ce qui change, montré aux clients avec le téléchargement.'}
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
