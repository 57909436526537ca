/**
 * The one-time links a test app sends: without SMTP_URL the link e-mail job writes each link to
 * the operator's log, which this catches, as an operator reading the log would.
 */
import { JobWorker } from '../../src/platform/jobs.js';
import type { TestApp } from './app.js';

export interface CaughtLink {
  to: string;
  kind: string;
  link: string;
  expiresAt: string;
}

export interface LinkCatcher {
  links: CaughtLink[];
  /** Runs the queued link e-mails and answers the token of the latest link of `kind` to `to`. */
  tokenFor(to: string, kind?: string): Promise<string>;
  /** Runs the queued link e-mails (so a test sees what they wrote). */
  deliver(): Promise<void>;
}

export function catchLinks(t: TestApp): LinkCatcher {
  const links: CaughtLink[] = [];
  const quiet = { error: () => undefined, warn: () => undefined };
  const worker = new JobWorker(t.runtime.services.jobs, quiet);
  t.runtime.services.linkMail.registerJobs(worker, {
    warn: (entry: unknown) => void links.push(entry as CaughtLink),
    error: () => undefined,
  } as never);
  const deliver = async () => {
    await worker.runDue();
  };
  return {
    links,
    deliver,
    async tokenFor(to, kind) {
      await deliver();
      const found = links.filter((entry) => entry.to === to.toLowerCase() && (!kind || entry.kind === kind)).at(-1);
      if (!found) throw new Error(`no link was sent to ${to}`);
      return found.link.split('#')[1];
    },
  };
}

export const PASSWORD = 'a long enough password';

/** The cookie header and CSRF token of a session an answer started. */
export function sessionOf(response: { headers: Record<string, unknown>; json(): { csrfToken: string } }): {
  cookie: string;
  csrfToken: string;
} {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? (header as string[]) : [String(header)];
  return { cookie: lines.map((line) => line.split(';')[0]).join('; '), csrfToken: response.json().csrfToken };
}
