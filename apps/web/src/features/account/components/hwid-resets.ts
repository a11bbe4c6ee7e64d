import { HWID_COMPONENTS, type HwidResetAllowance } from '@bot/contracts';

/** "2 déliaisons restantes sur 30 jours", in French with its plural. */
export function remainingResetsText(remaining: number, windowDays: number): string {
  if (remaining === 0)
    return `Plus aucune déliaison possible sur ${windowDays} jours : contactez le support.`;
  const plural = remaining > 1 ? 's' : '';
  return `${remaining} déliaison${plural} restante${plural} sur ${windowDays} jours.`;
}

/**
 * A PC whose parts mostly changed since it was bound spends one of them too (decision 906): the
 * customer reads the rule as the server applies it (free while more than half of the parts as bound
 * are kept, whatever the matching policy), its numbers from the contracts' list of parts.
 */
export function countedChangeNote(parts: number = HWID_COMPONENTS.length): string {
  const kept = Math.floor(parts / 2) + 1;
  const free = parts - kept;
  return `Réparer ou changer des composants du PC lié (disque, carte mère, carte réseau, processeur…) est gratuit tant qu’il garde au moins ${kept} de ses ${parts} composants tels que liés (jusqu’à ${free} changés) ; au-delà, cela compte comme une déliaison.`;
}

/**
 * When the next unbind is possible, if not now (the cooldown after an unbind or a counted PC
 * change, or no unbind left): the card says so and offers no button until then.
 */
export function unbindBlockedUntil(
  resets: Pick<HwidResetAllowance, 'remaining' | 'nextResetAt'>,
  now: number = Date.now(),
): Date | null {
  const next = new Date(resets.nextResetAt);
  return resets.remaining === 0 || next.getTime() > now ? next : null;
}

/** "Il vous restera 1 déliaison sur 30 jours." with its plural. */
export function remainingAfterUnbindText(remaining: number, windowDays: number): string {
  const left = Math.max(0, remaining - 1);
  return `Il vous restera ${left} déliaison${left > 1 ? 's' : ''} sur ${windowDays} jours.`;
}
