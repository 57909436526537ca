/** `npm run cli -- billing operator-token`: billing operators record payments of every account's bills, so their token is issued here, never over the API. */
import { parseArgs } from 'node:util';
import { CommandUsageError, stringOption, type AreaCommand } from '../../platform/module.js';
import type { BillingService } from './billing-service.js';

export const billingCommand: AreaCommand<{ billing: BillingService }> = {
  usage: [
    "billing operator-token [--name <name>]     a token for the service's billing operators (POST /v2/operator/bills/{id}/payments)",
  ],
  async run(args, open) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { name: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    if (positionals[0] !== 'operator-token')
      throw new CommandUsageError('usage: billing operator-token [--name <name>]');
    const issued = await (await open()).billing.issueOperatorToken(stringOption(values, 'name') ?? 'Billing operator');
    return values.json === true
      ? `${JSON.stringify({ scope: 'billing', token: issued.token })}\n`
      : `Billing operator token (shown once): ${issued.token}\n`;
  },
};
