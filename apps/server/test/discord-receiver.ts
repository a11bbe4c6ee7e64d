import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  id: string;
  token: string;
  body: { username?: string; embeds?: { title: string; description: string; color: number }[] };
}

/**
 * A local stand-in for Discord's webhook endpoint (`POST /api/webhooks/{id}/{token}`): answers
 * 204 like Discord, or what the test queues next: a 429 with Discord's JSON body
 * (`retry_after` in seconds), a redirect (`location`) or another failure status.
 */
export class DiscordReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Answers given, in order, to the next requests (then 204 again). */
  readonly nextAnswers: ({ status: 429; retryAfter: number } | { status: number; location?: string })[] = [];
  /** Every request, answered or refused. */
  requests = 0;
  private readonly server = createServer((request, response) => void this.handle(request, response));

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    this.requests += 1;
    const path = request.url?.match(/^\/api(?:\/v\d+)?\/webhooks\/(\d+)\/([\w-]+)$/);
    if (request.method !== 'POST' || !path || request.headers['content-type'] !== 'application/json') {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"message":"Unknown Webhook","code":10015}');
      return;
    }
    const answer = this.nextAnswers.shift();
    if (answer?.status === 429 && 'retryAfter' in answer) {
      response
        .writeHead(429, {
          'content-type': 'application/json',
          'retry-after': String(Math.ceil(answer.retryAfter)),
        })
        .end(
          JSON.stringify({
            message: 'You are being rate limited.',
            retry_after: answer.retryAfter,
            global: false,
          }),
        );
      return;
    }
    if (answer && 'location' in answer && answer.location) {
      response.writeHead(answer.status, { location: answer.location }).end();
      return;
    }
    if (answer) {
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end('{"message":"failure"}');
      return;
    }
    this.received.push({
      id: path[1] ?? '',
      token: path[2] ?? '',
      body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as ReceivedWebhook['body'],
    });
    response.writeHead(204).end();
  }
}
