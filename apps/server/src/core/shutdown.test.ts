import { describe, expect, it } from 'vitest';
import { pressCounter, runLastSave, SAME_PRESS_MS } from './shutdown.ts';

describe('pressCounter: what a drain signal means', () => {
  it('a press relayed by npm is the same press; the second press is logged, the third forces', () => {
    const verdictOf = pressCounter();
    // Ctrl-C: the terminal's signal, then npm's copy a fraction of a millisecond later.
    expect(verdictOf(0)).toBe('drain');
    expect(verdictOf(0.3)).toBe('relayed');
    // An impatient second Ctrl-C, relayed too.
    expect(verdictOf(2_000)).toBe('repeated');
    expect(verdictOf(2_001)).toBe('relayed');
    // A third one, a while later: the operator wants out.
    expect(verdictOf(4_000)).toBe('force');
  });

  it('signals closer than the window are one press, however many arrive', () => {
    const verdictOf = pressCounter();
    expect(verdictOf(0)).toBe('drain');
    for (let at = 1; at <= 5; at += 1) expect(verdictOf(at * (SAME_PRESS_MS / 2))).toBe('relayed');
    expect(verdictOf(5 * (SAME_PRESS_MS / 2) + SAME_PRESS_MS)).toBe('repeated');
  });
});

describe('runLastSave: what a forced exit still saves, and names what it could not', () => {
  it('runs the steps in order within the bound, naming a failed step, a late one and one left without time', async () => {
    const ran: string[] = [];
    const lost = await runLastSave(
      [
        { what: 'l’historique', run: async () => void ran.push('historique') },
        {
          what: 'les sessions',
          run: async () => {
            ran.push('sessions');
            throw new Error('base injoignable');
          },
        },
        { what: 'la base', run: () => new Promise(() => ran.push('base')) },
        { what: 'le verrou', run: async () => void ran.push('verrou') },
      ],
      50,
    );
    expect(ran).toEqual(['historique', 'sessions', 'base']);
    expect(lost).toEqual([
      'les sessions (base injoignable)',
      'la base (délai dépassé)',
      'le verrou (plus de temps)',
    ]);
  });

  it('nothing lost when every step ends in time', async () => {
    expect(await runLastSave([{ what: 'la base', run: async () => {} }], 1_000)).toEqual([]);
  });
});
