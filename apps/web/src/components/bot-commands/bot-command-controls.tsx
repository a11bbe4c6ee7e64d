import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { BotCommandList } from './bot-command-list.tsx';
import { fitsState, pauseStateOf } from './command-rules.ts';
import { ConfigureForm } from './configure-form.tsx';
import { useRouteNames } from './route-names.ts';
import { type CommandAccount, StopAccountList } from './stop-account-list.tsx';
import { useBotCommands } from './use-bot-commands.ts';

/** The one-click commands, as their buttons read. */
const BUTTONS: { kind: 'pause' | 'resume' | 'restart'; label: string }[] = [
  { kind: 'pause', label: 'Pause' },
  { kind: 'resume', label: 'Reprendre' },
  { kind: 'restart', label: 'Redémarrer' },
];

/**
 * Remote commands to one bot (decision 208), the same for its owner and for staff: pause, resume,
 * restart, stop one game account, cancel a command not handed over yet; staff also push a
 * configuration. `accounts`: the bot's game accounts (its last report). `paused`: the bot's live
 * state (undefined: unknown, Pause and Reprendre both offered). `live`: a socket of the page writes
 * the states; otherwise they are read again while a command waits.
 */
export function BotCommandControls({
  hwid,
  scope,
  accounts,
  paused,
  live,
}: {
  hwid: string;
  scope: 'owner' | 'staff';
  accounts: readonly CommandAccount[];
  paused?: boolean;
  live: boolean;
}) {
  const isStaff = scope === 'staff';
  const path = isStaff ? `/admin/bots/${encodeURIComponent(hwid)}/commands` : '/me/bot/commands';
  const { commands, send, cancel, refusal } = useBotCommands(hwid, path, { live });
  const routeName = useRouteNames(scope);
  const pauseState = pauseStateOf(commands, paused);
  const isHeld = (kind: (typeof BUTTONS)[number]['kind']) =>
    send.isPending || (kind !== 'restart' && pauseState.isChanging) || !fitsState(kind, pauseState.paused);
  if (refusal) {
    return (
      <Alert severity="info" data-testid="bot-commands-refused">
        {refusal}
      </Alert>
    );
  }
  return (
    <Box data-testid="bot-commands" data-scope={scope}>
      <Stack direction="row" spacing={1} sx={{ mb: 1.5, flexWrap: 'wrap' }}>
        {BUTTONS.map(({ kind, label }) => (
          <Button
            key={kind}
            size="small"
            variant="outlined"
            data-testid={`bot-command-${kind}`}
            disabled={isHeld(kind)}
            onClick={() => send.mutate({ kind })}
          >
            {label}
          </Button>
        ))}
      </Stack>
      <StopAccountList
        accounts={accounts}
        isSending={send.isPending}
        onStop={(account) => send.mutate({ kind: 'stopAccount', payload: { account } })}
      />
      {isStaff ? (
        <ConfigureForm
          accounts={accounts.map((account) => account.name)}
          isSending={send.isPending}
          onSend={(configuration) => send.mutate({ kind: 'configure', payload: configuration })}
        />
      ) : null}
      <BotCommandList
        commands={commands}
        ownerView={!isStaff}
        onCancel={(id) => cancel.mutate(id)}
        isCancelling={cancel.isPending}
        routeName={routeName}
      />
    </Box>
  );
}
