import { createServer, type Server } from 'node:http';
import { ERRORS } from '@bot/contracts';

/**
 * Takes the listen address before the slow part of the start (migrations): a second server fails
 * at once on a busy port instead of migrating first. Meanwhile it answers 503 "starting".
 */
export async function claimPort(port: number, host: string): Promise<Server> {
  const placeholder = createServer((_request, response) => {
    response.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' });
    response.end(JSON.stringify({ error: ERRORS.SERVICE_UNAVAILABLE.message, code: 'SERVICE_UNAVAILABLE' }));
  });
  await new Promise<void>((resolve, reject) => {
    placeholder.once('error', reject);
    placeholder.listen(port, host, () => resolve());
  });
  return placeholder;
}

/** Hands the address over to the real server. */
export async function releasePort(placeholder: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => placeholder.close(() => resolve()));
  placeholder.closeAllConnections();
  await closed;
}
