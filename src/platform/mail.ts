/**
 * Sending e-mail over SMTP (nodemailer). Configured by SMTP_URL and MAIL_FROM; without
 * SMTP_URL the service sends nothing (notifications are only stored).
 */
import type Nodemailer from 'nodemailer';
import { onFirstUse } from './lazy-require.js';

const nodemailer = onFirstUse<typeof Nodemailer>('nodemailer');

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative of the same text (mail programs show one or the other). */
  html?: string;
  /** Headers of its own (List-Unsubscribe of a buyer's message). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** A mailer for `smtp://host:port` (or `smtps://`, with user:password when the server asks). */
export function smtpMailer(smtpUrl: string, from: string, options: { timeoutMs?: number } = {}): Mailer {
  const timeout = options.timeoutMs ?? 30_000;
  const transport = nodemailer().createTransport({
    url: smtpUrl,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(message: MailMessage): Promise<void> {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.headers ? { headers: message.headers } : {}),
      });
    },
    close(): void {
      transport.close();
    },
  };
}
