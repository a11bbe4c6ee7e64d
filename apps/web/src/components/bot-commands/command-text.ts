import type { BotCommand } from '@bot/contracts';

/** Who sent a command, as the reader is told: "vous" to its owner, staff by name to staff, "l’équipe" to a customer. */
export function issuerOf(command: BotCommand, ownerView: boolean): string {
  if (command.issuer.type === 'staff') return command.issuer.username ?? 'l’équipe';
  if (ownerView) return 'vous';
  return command.issuer.username ?? 'le propriétaire';
}

/** What a command carries, in a few words (the account stopped, the route pushed by its name). */
export function detailOf(command: BotCommand, routeName: (id: string) => string): string {
  const { payload } = command;
  if (command.kind === 'stopAccount' && typeof payload.account === 'string') return ` « ${payload.account} »`;
  if (command.kind === 'configure' && typeof payload.routeId === 'string')
    return ` (itinéraire ${routeName(payload.routeId)})`;
  return '';
}

/** The server's word on a command; to its owner, their own cancellation reads "par vous". */
export function messageOf(command: BotCommand, ownerView: boolean): string | null {
  if (!command.message) return null;
  if (ownerView && command.message === 'annulée par le propriétaire') return 'annulée par vous';
  return command.message;
}
