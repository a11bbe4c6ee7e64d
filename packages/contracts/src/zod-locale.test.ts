import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import './zod-locale.ts';

describe('French validation messages', () => {
  it('say what a field needs, with its article, and whether it was missing', () => {
    expect(z.string().safeParse(1).error?.issues[0]?.message).toBe('Valeur invalide : il faut du texte.');
    expect(z.number().safeParse('x').error?.issues[0]?.message).toBe('Valeur invalide : il faut un nombre.');
    expect(z.object({ a: z.string() }).safeParse({}).error?.issues[0]?.message).toBe(
      'Valeur manquante : il faut du texte.',
    );
  });

  it('keep the locale’s message for everything else', () => {
    expect(z.string().min(3).safeParse('a').error?.issues[0]?.message).toMatch(/3/);
  });
});
