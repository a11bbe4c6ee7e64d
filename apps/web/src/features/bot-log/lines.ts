import { BOT_LOG_LEVELS, type BotLogLevel, type BotLogLine } from '@bot/contracts';

/** Lines a journal holds in the page: the oldest go first. */
export const MAX_LINES = 2_000;

/** Both lists' lines once each (a line comes both from what was kept and from the socket), in order. */
export function mergeLines(held: readonly BotLogLine[], incoming: readonly BotLogLine[]): BotLogLine[] {
  const byId = new Map<string, BotLogLine>();
  for (const line of held) byId.set(line.id, line);
  for (const line of incoming) byId.set(line.id, line);
  return [...byId.values()].sort((a, b) => Number(a.id) - Number(b.id)).slice(-MAX_LINES);
}

/**
 * Lines received after a pause: those with a larger id than the last one frozen (the page keeps at
 * most `MAX_LINES`, so comparing the lengths would say 0 once the journal is full).
 */
export function newerLines(lines: readonly BotLogLine[], frozen: readonly BotLogLine[]): number {
  const last = frozen.at(-1);
  if (!last) return lines.length;
  const lastId = Number(last.id);
  return lines.filter((line) => Number(line.id) > lastId).length;
}

/** The paused journal's button, with what waits: "1 nouvelle ligne", "3 nouvelles lignes". */
export function resumeLabel(waiting: number): string {
  if (waiting <= 0) return 'Reprendre le défilement';
  const count = waiting.toLocaleString('fr-FR');
  return `Reprendre le défilement (${count} ${waiting === 1 ? 'nouvelle ligne' : 'nouvelles lignes'})`;
}

/** The lines at or above a level whose message holds the search (case and accents ignored). */
export function filterLines(
  lines: readonly BotLogLine[],
  filter: { minLevel: BotLogLevel; search: string },
): BotLogLine[] {
  const rank = BOT_LOG_LEVELS.indexOf(filter.minLevel);
  const needle = fold(filter.search.trim());
  return lines.filter(
    (line) => BOT_LOG_LEVELS.indexOf(line.level) >= rank && (!needle || fold(line.message).includes(needle)),
  );
}

function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** The journal as a text file: one line each, `time [LEVEL] message` (UTC, ISO 8601). */
export function linesAsText(lines: readonly BotLogLine[]): string {
  return lines
    .map(
      (line) =>
        `${line.time} [${line.level.toUpperCase()}]${line.origin === 'server' ? ' (serveur)' : ''} ${line.message}`,
    )
    .join('\n')
    .concat(lines.length > 0 ? '\n' : '');
}
