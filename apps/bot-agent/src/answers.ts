import { type ClientToServerEvents, SOCKET_TIMEOUT_MS, type SocketAck } from '@bot/contracts';

/** The agent's messages the server answers (docs/protocol.md, "Acknowledgements"; decision 923). */
export type AnsweredEvent = 'bot_update' | 'bot_command_ack' | 'bot_command_result' | 'bot_log';

/** What the server refused of a message the agent sent: the client's `refused` event. */
export interface MessageRefusal {
  event: AnsweredEvent;
  code: string;
  /** The server's French message, naming what was refused. */
  error: string;
  /** `VALIDATION_ERROR`: the fields refused, `[{path, message}]`. */
  details?: unknown;
}

/** The part of a Socket.IO client socket an answered message needs. */
interface AnsweringSocket {
  timeout(ms: number): { emit(event: string, ...args: unknown[]): unknown };
}

/**
 * Sends a message asking for the server's answer, and tells a refusal. An answer that does not come
 * in time (the connection dropped, a server of protocol 1.0, which never answers) is let go.
 */
export function sendAnswered<E extends AnsweredEvent>(
  socket: AnsweringSocket,
  event: E,
  payload: Parameters<ClientToServerEvents[E]>[0],
  onRefused: (refusal: MessageRefusal) => void,
): void {
  socket.timeout(SOCKET_TIMEOUT_MS).emit(event, payload, (timedOut: Error | null, answer?: SocketAck) => {
    if (timedOut || !answer || answer.ok) return;
    onRefused({ event, code: answer.code, error: answer.error, details: answer.details });
  });
}
