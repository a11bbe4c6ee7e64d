import { BOT_LOG_LEVEL_LABELS, type BotLogLevel, type BotLogLine } from '@bot/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { dateTimeSeconds, timeSeconds } from '../../../lib/dates.ts';

const LEVEL_COLORS: Record<BotLogLevel, string> = {
  debug: 'text.secondary',
  info: 'info.light',
  warn: 'warning.light',
  error: 'error.light',
};

/** The journal's lines, oldest first, following the tail unless paused. */
export function BotLogLines({
  lines,
  isLoading,
  isFiltered,
  follow,
}: {
  lines: readonly BotLogLine[];
  isLoading: boolean;
  isFiltered: boolean;
  follow: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const lastId = lines.at(-1)?.id;
  // A new last line scrolls to it, unless the tail is paused.
  useEffect(() => {
    if (follow && lastId && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [follow, lastId]);

  if (lines.length === 0) {
    return (
      <Typography color="text.secondary" data-testid="bot-log-empty">
        {isLoading
          ? 'Chargement du journal…'
          : isFiltered
            ? 'Aucune ligne ne correspond à ces filtres.'
            : 'Aucune ligne pour l’instant : elles arrivent dès que le bot écrit.'}
      </Typography>
    );
  }
  return (
    <Box
      ref={box}
      role="log"
      aria-label="Lignes du journal du bot"
      // Announcing every line would drown a screen reader; the lines stay readable in the box.
      aria-live="off"
      tabIndex={0}
      data-testid="bot-log-lines"
      sx={{
        maxHeight: 420,
        overflow: 'auto',
        fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
        fontSize: '0.8rem',
        bgcolor: 'background.default',
        borderRadius: 1,
        p: 1,
      }}
    >
      {lines.map((line) => (
        <Box
          key={line.id}
          data-level={line.level}
          sx={{
            display: 'flex',
            // On a phone the message goes under its time and level.
            flexWrap: { xs: 'wrap', sm: 'nowrap' },
            columnGap: 1,
            py: 0.25,
            alignItems: 'baseline',
            fontStyle: line.origin === 'server' ? 'italic' : undefined,
          }}
        >
          <Box
            component="time"
            dateTime={line.time}
            title={dateTimeSeconds.format(new Date(line.time))}
            sx={{ color: 'text.secondary', flexShrink: 0 }}
          >
            {timeSeconds.format(new Date(line.time))}
          </Box>
          <Box component="span" sx={{ color: LEVEL_COLORS[line.level], flexShrink: 0, minWidth: '7.5em' }}>
            {BOT_LOG_LEVEL_LABELS[line.level]}
          </Box>
          <Box
            component="span"
            sx={{
              whiteSpace: 'pre-wrap',
              overflowWrap: 'anywhere',
              minWidth: 0,
              flexBasis: { xs: '100%', sm: 'auto' },
            }}
          >
            {line.message}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
