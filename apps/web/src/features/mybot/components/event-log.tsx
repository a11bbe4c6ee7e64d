import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { StatusChip } from '../../../components/status-chip.tsx';
import { timeSeconds as timeFormat } from '../../../lib/dates.ts';
import type { LiveEvent } from '../../../lib/socket/bot-cache.ts';

export function EventLog({ events }: { events: readonly LiveEvent[] }) {
  if (events.length === 0) {
    return (
      <Typography color="text.secondary" data-testid="mybot-events-empty">
        Les changements de statut et les connexions apparaîtront ici en direct.
      </Typography>
    );
  }
  return (
    <List dense data-testid="mybot-events" sx={{ maxHeight: 320, overflowY: 'auto' }}>
      {events.map((event) => (
        <ListItem
          key={event.id}
          data-kind={event.kind}
          disableGutters
          secondaryAction={event.status ? <StatusChip status={event.status} /> : null}
        >
          <ListItemText
            primary={`${event.account ? `${event.account} · ` : ''}${event.text}`}
            secondary={timeFormat.format(new Date(event.at))}
          />
        </ListItem>
      ))}
    </List>
  );
}
