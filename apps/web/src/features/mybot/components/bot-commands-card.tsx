import { BotCommandControls, type CommandAccount } from '../../../components/bot-commands/index.ts';
import { SectionCard } from '../../../components/section-card.tsx';

/**
 * Pause, resume, restart the bot or stop one of its game accounts from anywhere (decision 208), and
 * each command's true state: the list comes from GET /me/bot/commands, then the socket writes every
 * change into the same query.
 */
export function BotCommandsCard({
  hwid,
  accounts,
  paused,
}: {
  hwid: string;
  accounts: readonly CommandAccount[];
  /** The bot's live state; undefined when not known (offline, or the live connection down). */
  paused?: boolean;
}) {
  return (
    <SectionCard
      title="Commandes à distance"
      subheader="Le bot confirme chaque commande : l’état affiché est celui qu’il a reçu."
    >
      <BotCommandControls hwid={hwid} scope="owner" accounts={accounts} paused={paused} live />
    </SectionCard>
  );
}
