import { BotCommandControls } from '../../../components/bot-commands/index.ts';
import { SectionCard } from '../../../components/section-card.tsx';

/**
 * Pause, resume, restart the bot or stop one of its game accounts from anywhere (decision 208), and
 * each command's true state: the list comes from GET /me/bot/commands, then the socket writes every
 * change into the same query.
 */
export function BotCommandsCard({ hwid, accounts }: { hwid: string; accounts: string[] }) {
  return (
    <SectionCard
      title="Commandes à distance"
      subheader="Le bot confirme chaque commande : l’état affiché est celui qu’il a reçu."
    >
      <BotCommandControls hwid={hwid} scope="owner" accounts={accounts} live />
    </SectionCard>
  );
}
