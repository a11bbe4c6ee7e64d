import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import {
  BOT_COMMAND_BUTTONS,
  BotCommandList,
  COMMANDS_SHOWN,
  useBotCommands,
} from '../../../components/bot-command-list.tsx';

/**
 * Staff's remote commands to the bot of the map's panel (decision 208): pause, resume, restart, a
 * route pushed as its configuration; the states of the commands this staff member sent come live
 * through the admin socket, the others' with the list.
 */
export function BotCommandsPanel({ hwid }: { hwid: string }) {
  const { commands, send } = useBotCommands(hwid, `/admin/bots/${encodeURIComponent(hwid)}/commands`);
  const [routeId, setRouteId] = useState('');
  return (
    <Box data-testid="map-panel-commands">
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        Commandes à distance
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap' }}>
        {BOT_COMMAND_BUTTONS.map(({ kind, label }) => (
          <Button
            key={kind}
            size="small"
            variant="outlined"
            data-testid={`map-command-${kind}`}
            disabled={send.isPending}
            onClick={() => send.mutate({ kind })}
          >
            {label}
          </Button>
        ))}
      </Stack>
      <Stack
        component="form"
        direction="row"
        spacing={1}
        sx={{ mb: 1.5, alignItems: 'center' }}
        onSubmit={(event) => {
          event.preventDefault();
          send.mutate({ kind: 'configure', payload: { routeId: routeId.trim() || null } });
        }}
      >
        <TextField
          size="small"
          label="Itinéraire"
          value={routeId}
          onChange={(event) => setRouteId(event.target.value)}
          slotProps={{ htmlInput: { maxLength: 64, 'data-testid': 'map-command-route' } }}
        />
        <Button type="submit" size="small" disabled={send.isPending} data-testid="map-command-configure">
          Pousser
        </Button>
      </Stack>
      <BotCommandList commands={commands.slice(0, COMMANDS_SHOWN)} />
    </Box>
  );
}
