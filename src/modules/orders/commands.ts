/** `npm run cli -- carrier secret`: the secret a delivery company pushes statuses with. */
import { parseArgs } from 'node:util';
import { CommandUsageError, stringOption, type AreaCommand } from '../../platform/module.js';
import type { TrackingService } from './tracking.js';

export const carrierCommand: AreaCommand<{ tracking: TrackingService }> = {
  usage: [
    'carrier secret --id <companyId>            the X-Carrier-Secret of a company for POST /v2/tracking/events/{companyId}',
  ],
  async run(args, open) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { id: { type: 'string' } } });
    const id = Number(stringOption(values, 'id'));
    if (positionals[0] !== 'secret' || !Number.isInteger(id) || id < 1)
      throw new CommandUsageError('usage: carrier secret --id <companyId>');
    return `${(await open()).tracking.pushSecret(id)}\n`;
  },
};
