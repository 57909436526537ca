/**
 * The e-mails of one-time links: Russian first, then English, as plain text with a simple HTML
 * alternative. They go through the job table (an answer never waits on SMTP, and every request
 * that may send one queues exactly one job, known e-mail or not), their payload sealed with the
 * instance secret: a link works until used, so it is not left readable in the jobs table. Without
 * SMTP_URL the link is written to the operator's log instead.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { SecretBox } from '../../platform/crypto.js';
import type { Tables } from '../../platform/db/tables.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import type { Mailer, MailMessage } from '../../platform/mail.js';

export const LINK_MAIL_JOB = 'accounts.link-mail';

export type LinkMailKind = 'setup' | 'invitation' | 'reset' | 'signup' | 'signup-existing';

export interface LinkMail {
  kind: LinkMailKind;
  to: string;
  /** The link (absent for a sign-up with an e-mail that already signs in: it says to sign in or reset). */
  url: string | null;
  accountName: string;
  expiresAt: string;
  /** Where to sign in (and reset a password) for an e-mail that already has an account. */
  signInUrl: string;
}

/** What the operator's log (and tests) read when no SMTP server is configured. */
export type LinkLog = Pick<FastifyBaseLogger, 'warn' | 'error'>;

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

function until(expiresAt: string, language: 'ru' | 'en'): string {
  return new Intl.DateTimeFormat(language === 'ru' ? 'ru-RU' : 'en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(expiresAt));
}

interface Words {
  subject: string;
  lines: string[];
  action: string;
}

function wordsOf(mail: LinkMail, language: 'ru' | 'en'): Words {
  const account = mail.accountName;
  const expiry = `${until(mail.expiresAt, language)} UTC`;
  const ru = language === 'ru';
  switch (mail.kind) {
    case 'setup':
      return ru
        ? {
            subject: 'Настройка кабинета службы доставки',
            lines: [
              `Задайте e-mail и пароль владельца аккаунта «${account}».`,
              `Ссылка одноразовая и работает до ${expiry}.`,
            ],
            action: 'Настроить вход',
          }
        : {
            subject: 'Set up the delivery service dashboard',
            lines: [
              `Choose the owner's e-mail and password of the account "${account}".`,
              `The link works once, until ${expiry}.`,
            ],
            action: 'Set up the sign-in',
          };
    case 'invitation':
      return ru
        ? {
            subject: `Приглашение в аккаунт «${account}»`,
            lines: [
              `Вас пригласили в аккаунт «${account}» службы доставки. Задайте пароль, чтобы войти.`,
              `Ссылка одноразовая и работает до ${expiry}.`,
            ],
            action: 'Принять приглашение',
          }
        : {
            subject: `An invitation to "${account}"`,
            lines: [
              `You are invited to the delivery service account "${account}". Choose a password to sign in.`,
              `The link works once, until ${expiry}.`,
            ],
            action: 'Accept the invitation',
          };
    case 'reset':
      return ru
        ? {
            subject: 'Сброс пароля',
            lines: [
              'Кто-то (надеемся, вы) попросил сбросить пароль кабинета службы доставки.',
              `Ссылка одноразовая и работает до ${expiry}. Если это были не вы, ничего не делайте: пароль прежний.`,
            ],
            action: 'Задать новый пароль',
          }
        : {
            subject: 'Reset your password',
            lines: [
              'Someone (we hope you) asked to reset the password of the delivery service dashboard.',
              `The link works once, until ${expiry}. If it was not you, do nothing: your password stays.`,
            ],
            action: 'Choose a new password',
          };
    case 'signup':
      return ru
        ? {
            subject: 'Подтвердите e-mail',
            lines: [
              `Подтвердите адрес, чтобы создать аккаунт «${account}» службы доставки.`,
              `Ссылка одноразовая и работает до ${expiry}.`,
            ],
            action: 'Подтвердить и войти',
          }
        : {
            subject: 'Confirm your e-mail',
            lines: [
              `Confirm the address to create the delivery service account "${account}".`,
              `The link works once, until ${expiry}.`,
            ],
            action: 'Confirm and sign in',
          };
    case 'signup-existing':
      return ru
        ? {
            subject: 'Вы уже зарегистрированы',
            lines: [
              'Кто-то (надеемся, вы) попытался зарегистрироваться с этим адресом, но с ним уже входят в кабинет службы доставки.',
              'Войдите, или сбросьте пароль, если забыли его. Если это были не вы, ничего не делайте.',
            ],
            action: 'Войти',
          }
        : {
            subject: 'You already have an account',
            lines: [
              'Someone (we hope you) tried to sign up with this address, but it already signs in to the delivery service.',
              'Sign in, or reset the password if you forgot it. If it was not you, do nothing.',
            ],
            action: 'Sign in',
          };
  }
}

/** The message of a link: both languages, plain text and HTML. */
export function composeLinkMail(mail: LinkMail): MailMessage {
  const target = mail.url ?? mail.signInUrl;
  const [ru, en] = [wordsOf(mail, 'ru'), wordsOf(mail, 'en')];
  const text = [ru, en]
    .map((words) => [...words.lines, '', `${words.action}: ${target}`].join('\n'))
    .join('\n\n— — —\n\n');
  const block = (words: Words, lang: string) =>
    `<div lang="${lang}">${words.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}<p><a href="${escapeHtml(target)}">${escapeHtml(words.action)}</a></p></div>`;
  const html = `<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">${block(ru, 'ru')}<hr>${block(en, 'en')}</body></html>`;
  return { to: mail.to, subject: `${ru.subject} / ${en.subject}`, text: `${text}\n`, html };
}

/** Queues and sends the links' e-mails. */
export class LinkMailer {
  constructor(
    private readonly jobs: JobQueue,
    private readonly secretBox: SecretBox,
    private readonly mailer: Mailer | null,
  ) {}

  /** Queues one job; `mail` null queues one that sends nothing (a request about an unknown e-mail does the same work). */
  async queue(mail: LinkMail | null, trx?: Transaction<Tables>): Promise<void> {
    await this.jobs.enqueue(null, LINK_MAIL_JOB, { sealed: this.secretBox.seal(JSON.stringify(mail)) }, {}, trx);
  }

  registerJobs(worker: JobWorker, log: LinkLog): void {
    worker.register<{ sealed: string }>(LINK_MAIL_JOB, async (job) => {
      const mail = JSON.parse(this.secretBox.open(job.payload.sealed)) as LinkMail | null;
      if (!mail) return;
      if (this.mailer) {
        await this.mailer.send(composeLinkMail(mail));
        return;
      }
      log.warn(
        { to: mail.to, kind: mail.kind, link: mail.url ?? mail.signInUrl, expiresAt: mail.expiresAt },
        'SMTP_URL is not set: this e-mail was not sent; hand the link to its addressee',
      );
    });
  }
}
