import { useQuery } from '@tanstack/react-query';
import { BotCommandControls } from '../../../components/bot-commands/index.ts';
import { userBotQuery } from '../api/admin-users.ts';
import { Section } from './section.tsx';

/**
 * Staff's remote commands to the user's bound PC (decision 208). The page has no socket: the states
 * are read again while a command waits.
 */
export function BotCommandsSection({ userId }: { userId: string }) {
  const bot = useQuery(userBotQuery(userId));
  const hwid = bot.data?.hwid;
  if (!hwid) return null;
  const state = bot.data?.state;
  const paused = state?.online ? state.paused === true : undefined;
  return (
    <Section
      id="commandes-du-bot"
      title="Commandes à distance"
      subheader="Le bot confirme chaque commande : l’état affiché est celui qu’il a reçu."
    >
      <BotCommandControls
        hwid={hwid}
        scope="staff"
        accounts={state?.accounts ?? []}
        paused={paused}
        live={false}
      />
    </Section>
  );
}
