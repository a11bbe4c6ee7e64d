import { z } from 'zod';

/**
 * zod's own validation messages in French. Imported for its effect (`import '@bot/contracts/zod-locale'`)
 * by the server and by the web forms that validate with zod, and kept out of `index.ts` so that
 * importing a constant from the contracts does not pull zod into the public pages (docs/decisions/103).
 */
const french = z.locales.fr().localeError;

/** What a field should hold, with its article: zod's locale reads "chaîne de caractères attendu". */
const EXPECTED: Record<string, string> = {
  string: 'du texte',
  number: 'un nombre',
  int: 'un nombre entier',
  bigint: 'un nombre entier',
  boolean: 'vrai ou faux',
  array: 'une liste',
  object: 'un objet',
  date: 'une date',
};

z.config({
  localeError: (issue) => {
    if (issue.code === 'invalid_type' && typeof issue.expected === 'string' && issue.expected in EXPECTED) {
      return issue.input === undefined
        ? `Valeur manquante : il faut ${EXPECTED[issue.expected]}.`
        : `Valeur invalide : il faut ${EXPECTED[issue.expected]}.`;
    }
    // A number's bound, as a person says it: zod's locale reads "Trop petit : nombre doit être >=1".
    if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'number') {
      const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum).toLocaleString(
        'fr-FR',
      );
      if (issue.code === 'too_small') return issue.inclusive ? `Au moins ${bound}.` : `Plus de ${bound}.`;
      return issue.inclusive ? `Au plus ${bound}.` : `Moins de ${bound}.`;
    }
    return french(issue);
  },
});
