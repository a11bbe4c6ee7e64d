import Alert from '@mui/material/Alert';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { dateMedium } from '../../../lib/dates.ts';
import { BotTimelineView, botTimelineQuery } from '../../bot-timeline/index.ts';
import { userPcsQuery } from '../api/admin-users.ts';
import { Section } from './section.tsx';

/**
 * The user's PCs in time (connections, errors, payments, actions): what support looks at first. A PC
 * reset keeps its history: staff choose among every PC the user has had, the bound one first.
 */
export function BotTimelineSection({ userId }: { userId: string }) {
  const pcs = useQuery(userPcsQuery(userId));
  const [chosen, setChosen] = useState<string | null>(null);
  const hwid = chosen ?? pcs.data?.[0]?.hwid ?? null;
  const timeline = useQuery({ ...botTimelineQuery(hwid ?? ''), enabled: hwid !== null });
  if (!pcs.data || pcs.data.length === 0) return null;
  const chooser =
    pcs.data.length > 1 ? (
      <TextField
        select
        size="small"
        label="PC"
        value={hwid ?? ''}
        onChange={(event) => setChosen(event.target.value)}
        sx={{ minWidth: 240 }}
      >
        {pcs.data.map((pc) => (
          <MenuItem key={pc.hwid} value={pc.hwid}>
            {pc.isCurrent
              ? 'PC lié'
              : `Ancien PC${pc.lastSeenAt ? ` (vu le ${dateMedium.format(new Date(pc.lastSeenAt))})` : ''}`}
            {` · ${pc.hwid.slice(0, 12)}`}
          </MenuItem>
        ))}
      </TextField>
    ) : undefined;
  const current = pcs.data.find((pc) => pc.hwid === hwid);
  return (
    <Section
      id="historique-du-bot"
      title="Historique du bot"
      subheader={`${current?.isCurrent ? 'PC lié' : 'Ancien PC'} ${hwid}, les 30 derniers jours.`}
      action={chooser}
    >
      {timeline.data ? <BotTimelineView timeline={timeline.data} /> : null}
      {/* A former PC now bound to an account that outranks the reader (docs/decisions/404). */}
      {timeline.isError ? <Alert severity="info">{timeline.error.message}</Alert> : null}
    </Section>
  );
}
