/** "2 déliaisons restantes sur 30 jours", in French with its plural. */
export function remainingResetsText(remaining: number, windowDays: number): string {
  if (remaining === 0)
    return `Plus aucune déliaison possible sur ${windowDays} jours : contactez le support.`;
  const plural = remaining > 1 ? 's' : '';
  return `${remaining} déliaison${plural} restante${plural} sur ${windowDays} jours.`;
}
