/** `npm run cli -- account create|token`: accounts and their tokens, at the server. */
import { parseArgs } from 'node:util';
import { CommandUsageError, stringOption, type AreaCommand } from '../../platform/module.js';
import type { TokenResolver } from '../../platform/auth.js';
import type { AccessService } from './access.js';
import type { AccountService } from './service.js';

export const accountCommand: AreaCommand<{ accounts: AccountService; tokens: TokenResolver; access: AccessService }> = {
  usage: [
    'account create --name <name> [--email <e-mail> --password <password>] [--time-zone <zone>] [--json]',
    'account token --id <accountId> [--json]    issue another API token for an account',
    'account employee --id <accountId> --email <e-mail> --password <password> [--name <name>]   an employee who signs in to the dashboard at /app/',
    "account password --email <e-mail> --password <password>   set an employee's password; every sign-in of theirs ends",
    'account setup-link --id <accountId> [--json]   a fresh one-time link to set up the owner of an account nobody signs in to yet',
    'account invite --email <e-mail> [--name <account name>] [--json]   invite someone to make an account (SIGNUP=invite or open)',
  ],
  async run(args, open) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        'time-zone': { type: 'string' },
        id: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    });
    const action = positionals[0];
    const json = values.json === true;

    if (action === 'create') {
      const name = stringOption(values, 'name');
      if (!name) throw new CommandUsageError('account create needs --name <name>');
      const email = stringOption(values, 'email');
      const password = stringOption(values, 'password');
      if ((email === undefined) !== (password === undefined))
        throw new CommandUsageError('--email and --password go together');
      const created = await (await open()).accounts.createAccount({
        name,
        timeZone: stringOption(values, 'time-zone'),
        employee: email && password ? { email, password } : undefined,
      });
      if (json) return `${JSON.stringify({ accountId: created.accountId, token: created.token })}\n`;
      const employee =
        created.employeeId !== null ? `Employee ${created.employeeId} can log in with POST /v2/auth/login.\n` : '';
      return `Account ${created.accountId} created.\nAPI token (shown once, keep it safe): ${created.token}\n${employee}`;
    }

    if (action === 'token') {
      const id = Number(stringOption(values, 'id'));
      if (!Number.isInteger(id) || id < 1) throw new CommandUsageError('account token needs --id <accountId>');
      const token = await (await open()).accounts.issueAccountToken(id, 'issued by the CLI');
      return json
        ? `${JSON.stringify({ accountId: id, token })}\n`
        : `API token for account ${id} (shown once): ${token}\n`;
    }
    if (action === 'employee') {
      // an employee of an existing account (the first start's one, say): who signs in to the dashboard at /app/
      const id = Number(stringOption(values, 'id'));
      const email = stringOption(values, 'email');
      const password = stringOption(values, 'password');
      if (!Number.isInteger(id) || id < 1 || !email || !password)
        throw new CommandUsageError(
          'account employee needs --id <accountId> --email <e-mail> --password <password> [--name <name>]',
        );
      const employeeId = await (await open()).accounts.addEmployee(id, {
        name: stringOption(values, 'name') ?? email,
        email,
        password,
      });
      return json
        ? `${JSON.stringify({ accountId: id, employeeId })}\n`
        : `Employee ${employeeId} of account ${id} can sign in at /app/ (and POST /v2/auth/login).\n`;
    }
    if (action === 'password') {
      const email = stringOption(values, 'email');
      const password = stringOption(values, 'password');
      if (!email || !password)
        throw new CommandUsageError('account password needs --email <e-mail> --password <password>');
      const services = await open();
      const changed = await services.accounts.setPassword(email, password);
      // the server processes forget the ended sign-ins at once (the shared cache's invalidation)
      services.tokens.revoke(changed.accountId);
      return json
        ? `${JSON.stringify(changed)}\n`
        : `The password of employee ${changed.employeeId} (account ${changed.accountId}) is set; their sign-ins have ended.\n`;
    }
    if (action === 'setup-link') {
      const id = Number(stringOption(values, 'id'));
      if (!Number.isInteger(id) || id < 1) throw new CommandUsageError('account setup-link needs --id <accountId>');
      const link = await (await open()).access.setupLink(id);
      return json
        ? `${JSON.stringify({ accountId: id, ...link })}\n`
        : `Set-up link of account ${id} (works once, until ${link.expiresAt}; earlier ones no longer work):\n  ${link.url}\n`;
    }
    if (action === 'invite') {
      const email = stringOption(values, 'email');
      if (!email) throw new CommandUsageError('account invite needs --email <e-mail> [--name <account name>]');
      const link = await (await open()).access.inviteSignUp(email, stringOption(values, 'name') ?? '');
      return json
        ? `${JSON.stringify({ email, ...link })}\n`
        : `Sign-up invitation for ${email} (e-mailed when SMTP_URL is set; works once, until ${link.expiresAt}):\n  ${link.url}\n`;
    }
    throw new CommandUsageError(`unknown account command "${action ?? ''}"`);
  },
};
