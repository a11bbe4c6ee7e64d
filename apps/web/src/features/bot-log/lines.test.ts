import type { BotLogLine } from '@bot/contracts';
import { describe, expect, it } from 'vitest';
import { filterLines, linesAsText, MAX_LINES, mergeLines, newerLines, resumeLabel } from './lines.ts';

const line = (id: number, message: string, level: BotLogLine['level'] = 'info'): BotLogLine => ({
  id: String(id),
  level,
  time: `2026-11-26T10:00:${String(id % 60).padStart(2, '0')}.000Z`,
  message,
  origin: 'agent',
});

describe('journal lines', () => {
  it('merges kept and live lines once each, in the order received, keeping the last ones', () => {
    const merged = mergeLines([line(9, 'a'), line(10, 'b')], [line(10, 'b'), line(2, 'z'), line(11, 'c')]);
    expect(merged.map((kept) => kept.id)).toEqual(['2', '9', '10', '11']);
    const many = Array.from({ length: MAX_LINES + 5 }, (_, index) => line(index, `l${index}`));
    const capped = mergeLines(many, []);
    expect(capped).toHaveLength(MAX_LINES);
    expect(capped[0]?.id).toBe('5');
  });

  it('counts the lines received after a pause by id, also once the page caps what it holds', () => {
    const frozen = Array.from({ length: MAX_LINES }, (_, index) => line(index, `l${index}`));
    const later = mergeLines(frozen, [
      line(MAX_LINES, 'x'),
      line(MAX_LINES + 1, 'y'),
      line(MAX_LINES + 2, 'z'),
    ]);
    expect(later).toHaveLength(frozen.length);
    expect(newerLines(later, frozen)).toBe(3);
    expect(newerLines(frozen, frozen)).toBe(0);
    expect(newerLines([line(1, 'a')], [])).toBe(1);
    expect(resumeLabel(0)).toBe('Reprendre le défilement');
    expect(resumeLabel(1)).toBe('Reprendre le défilement (1 nouvelle ligne)');
    expect(resumeLabel(3)).toBe('Reprendre le défilement (3 nouvelles lignes)');
    expect(resumeLabel(1_200)).toBe('Reprendre le défilement (1\u202f200 nouvelles lignes)');
  });

  it('filters by minimal level and by a search that ignores case and accents', () => {
    const lines = [
      line(1, 'Récolte du frêne'),
      line(2, 'Chemin bloqué', 'warn'),
      line(3, 'ERREUR réseau', 'error'),
    ];
    expect(filterLines(lines, { minLevel: 'warn', search: '' }).map((kept) => kept.id)).toEqual(['2', '3']);
    expect(
      filterLines(lines, { minLevel: 'debug', search: 'RECOLTE DU FRENE' }).map((kept) => kept.id),
    ).toEqual(['1']);
    expect(filterLines(lines, { minLevel: 'debug', search: 'frene' }).map((kept) => kept.id)).toEqual(['1']);
    expect(filterLines(lines, { minLevel: 'info', search: 'erreur' }).map((kept) => kept.id)).toEqual(['3']);
  });

  it('writes a text file, one line each, the hub’s own lines marked', () => {
    expect(linesAsText([])).toBe('');
    expect(linesAsText([line(1, 'ok'), { ...line(2, '3 lignes…', 'warn'), origin: 'server' }])).toBe(
      '2026-11-26T10:00:01.000Z [INFO] ok\n2026-11-26T10:00:02.000Z [WARN] (serveur) 3 lignes…\n',
    );
  });
});
