/** `npm run cli -- sandbox …`: the sandbox's commands (POST /v2/sandbox/...), for an operator or a test script at the server. */
import { parseArgs } from 'node:util';
import { processScope } from '../../platform/auth.js';
import { CommandUsageError, stringOption, type AreaCommand } from '../../platform/module.js';
import type { AccountService } from '../accounts/service.js';
import type { SandboxService } from './service.js';

export const sandboxCommand: AreaCommand<{ sandbox: SandboxService; accounts: AccountService }> = {
  usage: [
    "sandbox close-period --account <id>        close the account's current billing period now (its bill and agent reports)",
    "sandbox collect-pickup --account <id> --id <pickupId>   a built-in company's booked pickup collected now",
    "sandbox advance-order --account <id> --id <orderId>     a built-in company's order moved one status now",
  ],
  async run(args, open) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { account: { type: 'string' }, id: { type: 'string' } },
    });
    const accountId = Number(stringOption(values, 'account'));
    const id = Number(stringOption(values, 'id'));
    const action = positionals[0];
    const usage =
      'usage: sandbox close-period --account <id> | sandbox collect-pickup --account <id> --id <pickupId> | sandbox advance-order --account <id> --id <orderId>';
    if (!Number.isInteger(accountId) || accountId < 1) throw new CommandUsageError(usage);
    if (action !== 'close-period' && (!Number.isInteger(id) || id < 1)) throw new CommandUsageError(usage);
    const services = await open();
    const scope = processScope(accountId, await services.accounts.timeZoneOf(accountId));
    if (action === 'close-period') {
      const period = await services.sandbox.closeBillingPeriod(scope);
      return `Closed the billing period ${period.start} to ${period.lastDay} of account ${accountId}: GET /v2/reports/bill lists its bill.\n`;
    }
    if (action === 'collect-pickup') {
      await services.sandbox.collectPickup(scope, id);
      return `Pickup ${id} of account ${accountId} is collected.\n`;
    }
    if (action === 'advance-order')
      return `Order ${id} of account ${accountId} is now at status ${await services.sandbox.advanceOrder(scope, id)}.\n`;
    throw new CommandUsageError(usage);
  },
};
