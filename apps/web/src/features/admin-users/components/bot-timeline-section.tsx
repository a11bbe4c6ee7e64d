import { useQuery } from '@tanstack/react-query';
import { BotTimelineView, botTimelineQuery } from '../../bot-timeline/index.ts';
import { Section } from './section.tsx';

/** The user's PC in time (connections, errors, payments, actions): what support looks at first. */
export function BotTimelineSection({ hwid }: { hwid: string }) {
  const timeline = useQuery(botTimelineQuery(hwid));
  return (
    <Section
      id="historique-du-bot"
      title="Historique du bot"
      subheader={`PC ${hwid}, les 30 derniers jours.`}
    >
      {timeline.data ? <BotTimelineView timeline={timeline.data} /> : null}
    </Section>
  );
}
