import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on a random local port, keeping every mail it receives. */
export class MailReceiver {
  readonly messages: ReceivedMail[] = [];
  /** While true the server answers every recipient `451` (a temporary failure, as during an outage). */
  isRefusing = false;
  /** Addresses the server refuses for good (`550`, as for a mailbox that does not exist). */
  readonly refusedAddresses = new Set<string>();
  private readonly waiters: {
    match: (mail: ReceivedMail) => boolean;
    resolve: (mail: ReceivedMail) => void;
  }[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (address, _session, callback) => {
      if (this.refusedAddresses.has(address.address.toLowerCase()))
        return callback(Object.assign(new Error('Boîte aux lettres inconnue'), { responseCode: 550 }));
      if (!this.isRefusing) return callback();
      callback(Object.assign(new Error('Service momentanément indisponible'), { responseCode: 451 }));
    },
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((parsed) => {
            const mail: ReceivedMail = {
              to: parsed.to?.map((address) => address.address ?? '').join(', ') ?? '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: parsed.html ?? '',
            };
            this.messages.push(mail);
            for (const waiter of [...this.waiters]) {
              if (waiter.match(mail)) {
                this.waiters.splice(this.waiters.indexOf(waiter), 1);
                waiter.resolve(mail);
              }
            }
            callback();
          })
          .catch(callback);
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** The first mail (already received or to come) matching `to` and, if given, a subject part. */
  waitFor(
    filter: { to: string; subject?: string; after?: number },
    timeoutMs = 10_000,
  ): Promise<ReceivedMail> {
    const match = (mail: ReceivedMail) =>
      mail.to.toLowerCase().includes(filter.to.toLowerCase()) &&
      (!filter.subject || mail.subject.includes(filter.subject));
    const existing = this.messages.slice(filter.after ?? 0).find(match);
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no mail to ${filter.to} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        match,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      });
    });
  }

  /** The link a mail carries (activation or reset). */
  static linkOf(mail: ReceivedMail): URL {
    const found = mail.text.match(/https?:\/\/\S+/);
    if (!found) throw new Error(`no link in mail "${mail.subject}"`);
    return new URL(found[0]);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
