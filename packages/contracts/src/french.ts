const pluralRules = new Intl.PluralRules('fr-FR');
const integers = new Intl.NumberFormat('fr-FR');

/**
 * "1 compte", "0 compte", "3 comptes", "12 500 comptes": a count with the French plural of its noun
 * (French takes the singular for 0 and 1), the number grouped the French way. Never "compte(s)".
 */
export function countOf(count: number, singular: string, plural: string): string {
  return `${integers.format(count)} ${pluralRules.select(count) === 'one' ? singular : plural}`;
}
