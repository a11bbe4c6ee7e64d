import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { BotCommandList } from './bot-command-list.tsx';
import { ConfigureForm, routeChoicesQuery } from './configure-form.tsx';
import { useBotCommands } from './use-bot-commands.ts';

/** The one-click commands, as their buttons read. */
const BUTTONS: { kind: 'pause' | 'resume' | 'restart'; label: string }[] = [
  { kind: 'pause', label: 'Pause' },
  { kind: 'resume', label: 'Reprendre' },
  { kind: 'restart', label: 'Redémarrer' },
];
/** Commands listed under the controls, newest first. */
const COMMANDS_SHOWN = 5;

/** Route names for the list (staff only: customers do not read the route list). */
function useRouteNames(enabled: boolean) {
  const routes = useQuery({ ...routeChoicesQuery, enabled });
  return (id: string) => routes.data?.find((route) => route.id === id)?.name ?? id;
}

/**
 * Remote commands to one bot (decision 208), the same for its owner and for staff: pause, resume,
 * restart, stop one game account, cancel a command not handed over yet; staff also push a
 * configuration. `accounts`: the bot's game accounts (its last report). `live`: a socket of the page
 * writes the states; otherwise they are read again while a command waits.
 */
export function BotCommandControls({
  hwid,
  scope,
  accounts,
  live,
}: {
  hwid: string;
  scope: 'owner' | 'staff';
  accounts: string[];
  live: boolean;
}) {
  const isStaff = scope === 'staff';
  const path = isStaff ? `/admin/bots/${encodeURIComponent(hwid)}/commands` : '/me/bot/commands';
  const { commands, send, cancel } = useBotCommands(hwid, path, { live });
  const routeName = useRouteNames(isStaff);
  return (
    <Box data-testid="bot-commands" data-scope={scope}>
      <Stack direction="row" spacing={1} sx={{ mb: 1.5, flexWrap: 'wrap' }}>
        {BUTTONS.map(({ kind, label }) => (
          <Button
            key={kind}
            size="small"
            variant="outlined"
            data-testid={`bot-command-${kind}`}
            disabled={send.isPending}
            onClick={() => send.mutate({ kind })}
          >
            {label}
          </Button>
        ))}
      </Stack>
      {accounts.length > 0 ? (
        <Stack spacing={0.5} sx={{ mb: 1.5 }}>
          {accounts.map((account) => (
            <Stack key={account} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Typography variant="body2" sx={{ flexGrow: 1 }}>
                {account}
              </Typography>
              <Button
                size="small"
                color="warning"
                data-testid="bot-command-stop-account"
                data-account={account}
                disabled={send.isPending}
                onClick={() => send.mutate({ kind: 'stopAccount', payload: { account } })}
              >
                Arrêter ce compte
              </Button>
            </Stack>
          ))}
        </Stack>
      ) : null}
      {isStaff ? (
        <ConfigureForm
          accounts={accounts}
          isSending={send.isPending}
          onSend={(configuration) => send.mutate({ kind: 'configure', payload: configuration })}
        />
      ) : null}
      <BotCommandList
        commands={commands.slice(0, COMMANDS_SHOWN)}
        ownerView={!isStaff}
        onCancel={(id) => cancel.mutate(id)}
        isCancelling={cancel.isPending}
        routeName={isStaff ? routeName : undefined}
      />
    </Box>
  );
}
