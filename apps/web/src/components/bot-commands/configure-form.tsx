import { type AgentConfiguration, agentConfigurationSchema } from '@bot/contracts';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { routeChoicesQuery } from './route-names.ts';

/** "" in the select: no route imposed, the agent chooses. */
const AGENT_CHOICE = '';

/**
 * Staff's configuration push (`configure`, checked by `agentConfigurationSchema`): a published route
 * picked by name, and for each game account of the bot whether it runs.
 */
export function ConfigureForm({
  accounts,
  isSending,
  onSend,
}: {
  accounts: string[];
  isSending: boolean;
  onSend: (configuration: AgentConfiguration) => void;
}) {
  const routes = useQuery(routeChoicesQuery);
  const [routeId, setRouteId] = useState(AGENT_CHOICE);
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const toggle = (name: string, enabled: boolean) =>
    setStopped((old) => {
      const next = new Set(old);
      if (enabled) next.delete(name);
      else next.add(name);
      return next;
    });
  return (
    <Stack
      component="form"
      spacing={1}
      sx={{ mb: 1.5 }}
      data-testid="bot-command-configure-form"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = agentConfigurationSchema.safeParse({
          routeId: routeId === AGENT_CHOICE ? null : routeId,
          accounts: accounts.map((name) => ({ name, enabled: !stopped.has(name) })),
        });
        setError(parsed.success ? null : 'Configuration invalide.');
        if (parsed.success) onSend(parsed.data);
      }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        Configuration
      </Typography>
      <TextField
        select
        size="small"
        label="Itinéraire"
        value={routeId}
        onChange={(event) => setRouteId(event.target.value)}
        helperText={routes.isError ? 'Itinéraires indisponibles.' : undefined}
        slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'bot-command-route' } as object } }}
      >
        <MenuItem value={AGENT_CHOICE}>Au choix du bot</MenuItem>
        {(routes.data ?? []).map((route) => (
          <MenuItem key={route.id} value={route.id}>
            {route.name}
          </MenuItem>
        ))}
      </TextField>
      {accounts.map((name) => (
        <FormControlLabel
          key={name}
          label={`${name} ${stopped.has(name) ? 'arrêté' : 'actif'}`}
          control={
            <Switch
              size="small"
              checked={!stopped.has(name)}
              onChange={(event) => toggle(name, event.target.checked)}
              slotProps={{
                input: { 'data-testid': 'bot-command-account-enabled', 'data-account': name } as object,
              }}
            />
          }
        />
      ))}
      {error ? <Typography color="error">{error}</Typography> : null}
      <Button
        type="submit"
        size="small"
        variant="outlined"
        disabled={isSending}
        data-testid="bot-command-configure"
        sx={{ alignSelf: 'flex-start' }}
      >
        Pousser la configuration
      </Button>
    </Stack>
  );
}
