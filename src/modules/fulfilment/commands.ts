/** `npm run cli -- fulfilment operator-token`: the staff of a fulfilment warehouse move supplies of every account there, so their token is issued here, never over the API. */
import { parseArgs } from 'node:util';
import { CommandUsageError, stringOption, type AreaCommand } from '../../platform/module.js';
import type { SupplyService } from './supply-service.js';

export const fulfilmentCommand: AreaCommand<{ supplies: SupplyService }> = {
  usage: [
    'fulfilment operator-token --warehouse <id> [--name <name>]   a token for the staff of a fulfilment warehouse (GET /v2/warehouses?hold=1)',
  ],
  async run(args, open) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { warehouse: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    const warehouseId = Number(stringOption(values, 'warehouse'));
    if (positionals[0] !== 'operator-token' || !Number.isInteger(warehouseId) || warehouseId < 1)
      throw new CommandUsageError('usage: fulfilment operator-token --warehouse <id> [--name <name>]');
    const name = stringOption(values, 'name') ?? 'Warehouse staff';
    const issued = await (await open()).supplies.createOperatorToken(warehouseId, name);
    return values.json === true
      ? `${JSON.stringify({ warehouseId, token: issued.token })}\n`
      : `Operator token for fulfilment warehouse ${warehouseId} (shown once): ${issued.token}\n`;
  },
};
