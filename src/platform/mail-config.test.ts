/** SMTP_URL and MAIL_FROM are checked at start like every setting; a password in SMTP_URL is never echoed. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

const base = { DATA_DIR: '/tmp/mail-config-test', DATABASE_URL: 'sqlite::memory:' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('mail settings', () => {
  it('are optional: without SMTP_URL notifications are only stored', () => {
    const config = loadConfig({ ...base, PUBLIC_URL: 'https://delivery.example.com' });
    expect(config.smtpUrl).toBeNull();
    expect(config.mailFrom).toBe('Delivery service <noreply@delivery.example.com>');
  });

  it('take smtp:// and smtps:// URLs and an address or "Name <address>"', () => {
    const config = loadConfig({
      ...base,
      SMTP_URL: 'smtps://user:secret@mail.example.com:465',
      MAIL_FROM: 'Магазин <shop@example.com>',
    });
    expect(config.smtpUrl).toBe('smtps://user:secret@mail.example.com:465');
    expect(config.mailFrom).toBe('Магазин <shop@example.com>');
    expect(problemsOf({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'noreply@example.com' })).toEqual([]);
  });

  it('refuse anything else, without repeating a password', () => {
    const problems = problemsOf({ SMTP_URL: 'http://user:hunter2@mail.example.com', MAIL_FROM: 'not an address' });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(problems[1]).toMatch(/^MAIL_FROM must be an e-mail address/);
    expect(problems.join(' ')).not.toContain('hunter2');
    expect(problemsOf({ SMTP_URL: 'smtp://' })).toHaveLength(1);
  });
});
