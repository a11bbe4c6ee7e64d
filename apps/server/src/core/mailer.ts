import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP when a URL is configured; otherwise `.eml` files in `DATA_DIR/outbox`. */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: Logger;
}): Mailer {
  if (options.smtpUrl) {
    // Bounded: the outbox worker must not hang on an SMTP server that accepts and never answers.
    const transport: Transporter = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      async send(message) {
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      // Mails carry one-time links: for this user's eyes only (core/private-files.ts).
      await mkdir(outbox, { recursive: true, mode: 0o700 });
      const file = path.join(
        outbox,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${message.to.replace(/[^\w.@-]/g, '_')}.eml`,
      );
      // Written aside then renamed: a write cut short (a full disk) leaves no empty mail behind, and
      // the outbox's retry writes it whole.
      await writeFile(`${file}.partial`, info.message as Buffer, { mode: 0o600 }).catch(
        async (error: unknown) => {
          await rm(`${file}.partial`, { force: true });
          throw error;
        },
      );
      await rename(`${file}.partial`, file);
      options.log.info(
        // The file, not the link: links carry one-time tokens, which logs never hold.
        { to: message.to, file },
        `Mail écrit dans l'outbox : ${message.subject}`,
      );
    },
    close: () => transport.close(),
  };
}

const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** A plain French mail with one call-to-action link, as text and HTML. */
export function buildLinkMail(input: {
  to: string;
  subject: string;
  greeting: string;
  body: string;
  action: string;
  link: string;
  footer: string;
}): MailMessage {
  const text = `${input.greeting}\n\n${input.body}\n\n${input.action} : ${input.link}\n\n${input.footer}\n`;
  const html = `<!doctype html><html lang="fr"><body style="font-family:sans-serif;background:#111;color:#eee;padding:24px">
<p>${escapeHtml(input.greeting)}</p><p>${escapeHtml(input.body)}</p>
<p><a href="${escapeHtml(input.link)}" style="background:#7c4dff;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(input.action)}</a></p>
<p style="font-size:12px;color:#aaa">${escapeHtml(input.footer)}<br>${escapeHtml(input.link)}</p></body></html>`;
  return { to: input.to, subject: input.subject, text, html };
}
