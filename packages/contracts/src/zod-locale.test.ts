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

  it('say a number’s bounds as a person would', () => {
    expect(z.number().int().min(1).max(90).safeParse(0).error?.issues[0]?.message).toBe('Au moins 1.');
    expect(z.number().int().min(1).max(90).safeParse(91).error?.issues[0]?.message).toBe('Au plus 90.');
    expect(z.number().positive().safeParse(0).error?.issues[0]?.message).toBe('Plus de 0.');
    expect(z.number().lt(5).safeParse(5).error?.issues[0]?.message).toBe('Moins de 5.');
    expect(z.coerce.number().min(1_000).safeParse('3').error?.issues[0]?.message).toBe(
      'Au moins 1\u202f000.',
    );
  });

  it('keep the locale’s message for everything else', () => {
    expect(z.string().min(3).safeParse('a').error?.issues[0]?.message).toMatch(/3/);
  });
});
