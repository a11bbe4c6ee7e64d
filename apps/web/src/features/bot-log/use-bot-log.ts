import type { BotLogLine } from '@bot/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { type LiveConnectionState, socketClient } from '../../lib/socket/index.ts';
import { type BotLogScope, botLogQuery } from './api/bot-log.ts';
import { mergeLines } from './lines.ts';

/**
 * One bot's journal while it is open: the lines the server kept, then those its socket brings (the
 * agent streams only while a journal is open). A reconnected socket reads what was kept again, so
 * lines received meanwhile are not missing.
 */
export function useBotLog({ scope, hwid, isOpen }: { scope: BotLogScope; hwid: string; isOpen: boolean }) {
  const kept = useQuery({ ...botLogQuery(scope, hwid), enabled: isOpen });
  const [live, setLive] = useState<BotLogLine[]>([]);
  const [connection, setConnection] = useState<LiveConnectionState>('connecting');
  const [refusal, setRefusal] = useState<string | null>(null);
  const { refetch } = kept;

  useEffect(() => {
    if (!isOpen) return;
    setLive([]);
    setRefusal(null);
    let wasConnected = false;
    socketClient.connectToBotLog(hwid, {
      onLines: (lines) => setLive((held) => mergeLines(held, lines)),
      onConnectionChange: (state) => {
        setConnection(state);
        if (state === 'connected' && wasConnected) void refetch();
        if (state === 'connected') wasConnected = true;
      },
      onAuthError: (body) => setRefusal(body.error),
    });
    return () => socketClient.disconnectBotLog(hwid);
  }, [hwid, isOpen, refetch]);

  const lines = useMemo(() => mergeLines(kept.data?.data ?? [], live), [kept.data, live]);
  return {
    lines,
    /** The bot was online when the journal opened, or has sent lines since. */
    isOnline: (kept.data?.online ?? false) || live.length > 0,
    connection,
    refusal,
    isLoading: kept.isPending && isOpen,
    error: kept.error,
  };
}
