/** "2 déliaisons restantes sur 30 jours", in French with its plural. */
export function remainingResetsText(remaining: number, windowDays: number): string {
  if (remaining === 0)
    return `Plus aucune déliaison possible sur ${windowDays} jours : contactez le support.`;
  const plural = remaining > 1 ? 's' : '';
  return `${remaining} déliaison${plural} restante${plural} sur ${windowDays} jours.`;
}

/**
 * A PC whose parts mostly changed since it was bound spends one of them too (decision 906): the
 * customer reads it beside the counter before a repair surprises them.
 */
export const COUNTED_CHANGE_NOTE =
  'Changer la plupart des composants du PC lié (disque, carte mère, carte réseau, processeur…) compte aussi comme une déliaison ; un seul composant changé ne compte pas.';
