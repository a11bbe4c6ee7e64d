import { BOT_LOG_LEVEL_LABELS, BOT_LOG_LEVELS, type BotLogLevel, type BotLogLine } from '@bot/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { SectionCard } from '../../../components/section-card.tsx';
import type { LiveConnectionState } from '../../../lib/socket/index.ts';
import type { BotLogScope } from '../api/bot-log.ts';
import { filterLines, linesAsText, newerLines, resumeLabel } from '../lines.ts';
import { useBotLog } from '../use-bot-log.ts';
import { BotLogLines } from './bot-log-lines.tsx';

/** What the journal says of its own state, above the lines. */
function statusOf(connection: LiveConnectionState, isOnline: boolean, refusal: string | null): string {
  if (refusal) return refusal;
  if (connection === 'connecting') return 'Connexion au journal…';
  if (connection === 'reconnecting') return 'Connexion perdue : reconnexion au journal…';
  if (connection !== 'connected') return 'Journal interrompu.';
  return isOnline
    ? 'En direct : les nouvelles lignes du bot s’affichent à mesure.'
    : 'Bot hors ligne : les lignes conservées s’affichent, la suite arrivera dès sa connexion.';
}

/**
 * "Journal du bot" (decision 209): closed, the agent sends nothing; opened, the lines the server
 * kept, then the bot's own log live. Filter by level, search, pause the tail, download as text.
 */
export function BotLogCard({ scope, hwid, online }: { scope: BotLogScope; hwid: string; online?: boolean }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <SectionCard
      id="journal"
      title="Journal du bot"
      subheader="Les lignes que le bot écrit sur son PC, sans ses secrets. Il ne les envoie que pendant que le journal est ouvert."
    >
      {isOpen ? (
        <OpenJournal scope={scope} hwid={hwid} online={online} onClose={() => setOpen(false)} />
      ) : (
        <Button variant="outlined" onClick={() => setOpen(true)} data-testid="bot-log-open">
          Ouvrir le journal
        </Button>
      )}
    </SectionCard>
  );
}

function OpenJournal({
  scope,
  hwid,
  online,
  onClose,
}: {
  scope: BotLogScope;
  hwid: string;
  online?: boolean;
  onClose: () => void;
}) {
  const journal = useBotLog({ scope, hwid, isOpen: true });
  const [minLevel, setMinLevel] = useState<BotLogLevel>('debug');
  const [search, setSearch] = useState('');
  /** Paused: the lines shown stay those of that moment; the others wait. */
  const [frozen, setFrozen] = useState<BotLogLine[] | null>(null);
  const held = frozen ?? journal.lines;
  const shown = useMemo(() => filterLines(held, { minLevel, search }), [held, minLevel, search]);
  const waiting = frozen ? newerLines(journal.lines, frozen) : 0;
  const isOnline = online ?? journal.isOnline;

  const download = () => {
    const url = URL.createObjectURL(
      new Blob([linesAsText(journal.lines)], { type: 'text/plain;charset=utf-8' }),
    );
    const link = document.createElement('a');
    link.href = url;
    link.download = `journal-${hwid}-${new Date().toISOString().slice(0, 19).replaceAll(':', '-')}.txt`;
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label="Niveau minimal"
          value={minLevel}
          onChange={(event) => setMinLevel(event.target.value as BotLogLevel)}
          slotProps={{ select: { native: true } }}
          sx={{ minWidth: 170 }}
        >
          {BOT_LOG_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level === 'debug' ? 'Tous les niveaux' : BOT_LOG_LEVEL_LABELS[level]}
            </option>
          ))}
        </TextField>
        <TextField
          size="small"
          type="search"
          label="Rechercher"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          sx={{ flex: '1 1 180px' }}
        />
        <Button
          variant="outlined"
          aria-pressed={frozen !== null}
          onClick={() => setFrozen(frozen ? null : journal.lines)}
          data-testid="bot-log-pause"
        >
          {frozen ? resumeLabel(waiting) : 'Suspendre le défilement'}
        </Button>
        <Button variant="outlined" onClick={download} disabled={journal.lines.length === 0}>
          Télécharger (.txt)
        </Button>
        <Button onClick={onClose} data-testid="bot-log-close">
          Fermer le journal
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" role="status" data-testid="bot-log-status">
        {statusOf(journal.connection, isOnline, journal.refusal)}
      </Typography>
      {journal.error ? <Alert severity="error">{journal.error.message}</Alert> : null}
      <BotLogLines
        lines={shown}
        isLoading={journal.isLoading}
        isFiltered={shown.length !== held.length}
        follow={frozen === null}
      />
    </Stack>
  );
}
