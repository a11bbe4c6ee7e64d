import { whitelistAddInput } from '@bot/contracts';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { SectionCard } from '../../../components/section-card.tsx';
import { visuallyHidden } from '../../../lib/visually-hidden.ts';
import { botKeyQuery } from '../../account/index.ts';
import { downloadHref, useLatestRelease } from '../../releases/index.ts';
import { addToWhitelist, myWhitelistQuery } from '../../whitelist/index.ts';

const DOWNLOADED_KEY = 'first-run-downloaded';
const KEY_COPIED_KEY = 'first-run-key-copied';
/** While the whitelist is empty it is read again this often: entries added elsewhere show up. */
const WHITELIST_POLL_MS = 5_000;

function remembered(key: string): boolean {
  try {
    return localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}
function remember(key: string): void {
  try {
    localStorage.setItem(key, '1');
  } catch {
    // not remembered: the step is still ticked on this page
  }
}

function ChecklistStep({
  id,
  number,
  title,
  isDone,
  children,
}: {
  id: string;
  number: number;
  title: string;
  isDone: boolean;
  children: ReactNode;
}) {
  return (
    <Box
      component="li"
      data-testid={`first-run-${id}`}
      data-done={isDone}
      sx={{ display: 'flex', gap: 1.5, py: 1.5, borderTop: number > 1 ? 1 : 0, borderColor: 'divider' }}
    >
      {isDone ? (
        <CheckCircleIcon color="success" data-testid="first-run-done-icon" sx={{ mt: 0.25 }} />
      ) : (
        <RadioButtonUncheckedIcon sx={{ mt: 0.25, color: 'text.secondary' }} />
      )}
      <Box sx={{ minWidth: 0, flexGrow: 1 }}>
        <Typography component="h3" sx={{ fontWeight: 700, color: isDone ? 'success.light' : 'text.primary' }}>
          {number}. {title}
          <Box component="span" sx={visuallyHidden}>
            {isDone ? ' (fait)' : ' (à faire)'}
          </Box>
        </Typography>
        <Box sx={{ color: 'text.secondary', mt: 0.5 }}>{children}</Box>
      </Box>
    </Box>
  );
}

function DownloadStep({ isConnected }: { isConnected: boolean }) {
  const release = useLatestRelease('stable', true);
  const [isDownloaded, setIsDownloaded] = useState(() => remembered(DOWNLOADED_KEY));
  const latest = release.status === 'ready' ? release.latest : null;
  return (
    <ChecklistStep id="download" number={1} title="Téléchargez le bot" isDone={isConnected || isDownloaded}>
      {release.status === 'loading' ? (
        <Typography>Recherche de la dernière version…</Typography>
      ) : release.status === 'failed' ? (
        <Typography role="alert">{release.message}</Typography>
      ) : latest ? (
        <Button
          component="a"
          href={downloadHref(latest)}
          download={latest.release.fileName}
          variant="contained"
          size="small"
          startIcon={<DownloadIcon />}
          onClick={() => {
            remember(DOWNLOADED_KEY);
            setIsDownloaded(true);
          }}
        >
          Télécharger la version {latest.release.version}
        </Button>
      ) : (
        <Typography data-testid="first-run-no-release">
          Aucune version n’est publiée pour le moment : l’équipe prépare la première et elle apparaîtra ici.
          Préparez déjà votre clé et votre liste blanche.
        </Typography>
      )}
    </ChecklistStep>
  );
}

function KeyStep({ isConnected }: { isConnected: boolean }) {
  const queryClient = useQueryClient();
  const [isCopied, setIsCopied] = useState(() => remembered(KEY_COPIED_KEY));
  const [copyFailed, setCopyFailed] = useState<string | null>(null);
  const onCopy = async () => {
    const key = await queryClient.fetchQuery(botKeyQuery).catch(() => null);
    if (!key) return;
    try {
      await navigator.clipboard.writeText(key);
      setCopyFailed(null);
    } catch {
      setCopyFailed(key); // no clipboard here: the key is shown to copy by hand
    }
    remember(KEY_COPIED_KEY);
    setIsCopied(true);
  };
  return (
    <ChecklistStep id="key" number={2} title="Copiez votre clé d’accès" isDone={isConnected || isCopied}>
      <Typography>Au premier lancement, le bot la demande : collez-la.</Typography>
      <Button size="small" variant="outlined" startIcon={<ContentCopyIcon />} onClick={onCopy} sx={{ mt: 1 }}>
        Copier ma clé d’accès
      </Button>
      {isCopied && !copyFailed ? (
        <Typography variant="body2" sx={{ mt: 0.5 }} role="status">
          Clé copiée dans le presse-papiers.
        </Typography>
      ) : null}
      {copyFailed ? (
        <TextField
          size="small"
          fullWidth
          label="Votre clé (à copier)"
          value={copyFailed}
          slotProps={{ htmlInput: { readOnly: true } }}
          sx={{ mt: 1 }}
        />
      ) : null}
    </ChecklistStep>
  );
}

function WhitelistStep() {
  const queryClient = useQueryClient();
  const whitelist = useQuery({
    ...myWhitelistQuery,
    refetchInterval: (query) => ((query.state.data?.data.length ?? 0) > 0 ? false : WHITELIST_POLL_MS),
  });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: addToWhitelist,
    onSuccess: async () => {
      setName('');
      await queryClient.invalidateQueries({ queryKey: myWhitelistQuery.queryKey });
    },
  });
  const entries = whitelist.data?.data ?? [];
  const slots = whitelist.data?.slots;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = whitelistAddInput.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Nom invalide.');
      return;
    }
    setError(null);
    add.mutate(parsed.data.name);
  };
  return (
    <ChecklistStep
      id="whitelist"
      number={3}
      title="Ajoutez vos comptes de jeu à la liste blanche"
      isDone={entries.length > 0}
    >
      <Typography>
        Le bot ne pilote que les comptes de cette liste
        {slots?.total ? ` (${slots.used} / ${slots.total} emplacements utilisés)` : ''}.{' '}
        {entries.length > 0 ? `Déjà : ${entries.map((entry) => entry.name).join(', ')}.` : ''}
      </Typography>
      <Box
        component="form"
        aria-label="Ajouter un compte de jeu"
        onSubmit={onSubmit}
        sx={{ display: 'flex', gap: 1, mt: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
      >
        <TextField
          size="small"
          label="Nom du compte de jeu"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={error !== null}
          helperText={error ?? undefined}
          sx={{ flex: '1 1 200px' }}
        />
        <Button type="submit" variant="outlined" disabled={add.isPending}>
          Ajouter
        </Button>
      </Box>
      <Button component={RouterLink} to="/account/whitlist" size="small" sx={{ mt: 0.5, px: 0 }}>
        Gérer la liste blanche
      </Button>
    </ChecklistStep>
  );
}

/**
 * The first run as a checklist: each step with its action right there and its state, live. The
 * connection step turns green by itself when the bot connects (the page polls `/me/bot` every 5 s
 * while no PC is bound); once it has, the checklist can be put away.
 */
export function FirstRunGuide({ isConnected, onHide }: { isConnected: boolean; onHide: () => void }) {
  return (
    <SectionCard
      title="Premiers pas"
      subheader="Quatre étapes pour faire tourner votre bot : chacune passe au vert une fois faite."
    >
      <Box component="ol" data-testid="mybot-first-run" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        <DownloadStep isConnected={isConnected} />
        <KeyStep isConnected={isConnected} />
        <WhitelistStep />
        <ChecklistStep
          id="connection"
          number={4}
          title="Lancez le bot : première connexion"
          isDone={isConnected}
        >
          {isConnected ? (
            <Typography color="success.light" role="status">
              Votre bot est connecté et votre PC est lié à votre compte. Suivez-le ci-dessous.
            </Typography>
          ) : (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }} role="status">
              <CircularProgress size={16} aria-hidden />
              <Typography>
                En attente de votre bot… Lancez-le sur votre PC et collez la clé : cette étape passe au vert
                d’elle-même.
              </Typography>
            </Box>
          )}
        </ChecklistStep>
      </Box>
      {isConnected ? (
        <Button onClick={onHide} sx={{ mt: 1 }}>
          Masquer ces étapes
        </Button>
      ) : null}
    </SectionCard>
  );
}
