import { BOT_STATUSES, type BotStatus } from '@bot/contracts';

/** How urgently a status needs staff's eyes. */
const URGENCY: Record<BotStatus, number> = {
  error: 3,
  stopped: 2,
  fighting: 1,
  idle: 0,
  moving: 0,
  gathering: 0,
  treasure: 0,
  banking: 0,
};
const URGENCY_BY_INDEX = BOT_STATUSES.map((status) => URGENCY[status]);

/**
 * The status (index in BOT_STATUSES) a cluster of bots is drawn with: the most urgent one inside it,
 * so an erroring bot never hides in a cluster of idle ones; the most frequent among equally urgent.
 * `counts` holds one count per status from `base`.
 */
export function clusterStatus(counts: ArrayLike<number>, base = 0): number {
  let chosen = 0;
  let chosenCount = 0;
  for (let status = 0; status < BOT_STATUSES.length; status++) {
    const count = counts[base + status] ?? 0;
    if (count === 0) continue;
    const urgency = URGENCY_BY_INDEX[status] ?? 0;
    const chosenUrgency = chosenCount === 0 ? -1 : (URGENCY_BY_INDEX[chosen] ?? 0);
    if (urgency > chosenUrgency || (urgency === chosenUrgency && count > chosenCount)) {
      chosen = status;
      chosenCount = count;
    }
  }
  return chosen;
}
