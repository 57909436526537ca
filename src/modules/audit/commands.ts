/** `npm run cli -- audit verify [--account N]`: walks the hash chains; a broken one exits 1 naming its first broken entry. */
import { parseArgs } from 'node:util';
import { AppError } from '../../platform/errors.js';
import { CommandUsageError, stringOption, type AreaCommand } from '../../platform/module.js';
import type { AuditService } from './service.js';

/** Exit code 1 with its message (main.ts prints an AppError's message, without a stack). */
export class AuditChainBroken extends AppError {
  constructor(message: string) {
    super(409, 'audit_chain_broken', message);
  }
}

export const auditCommand: AreaCommand<{ audit: AuditService }> = {
  usage: ["audit verify [--account N]     verify the audit trail's hash chains (exit 1 at the first broken entry)"],
  async run(args, open) {
    const [sub, ...rest] = args;
    if (sub !== 'verify') throw new CommandUsageError('usage: audit verify [--account N]');
    const { values } = parseArgs({ args: rest, options: { account: { type: 'string' } } });
    const account = stringOption(values, 'account');
    if (account !== undefined && !/^\d+$/.test(account)) throw new CommandUsageError('--account must be a number');
    const { audit } = await open();
    const result = await audit.verify(account === undefined ? undefined : Number(account));
    if (result.broken)
      throw new AuditChainBroken(
        `The audit trail of account ${result.broken.accountId} is broken at entry ${result.broken.entryId ?? '(end of the chain)'}: ${result.broken.reason}. ${result.checked} entries verified before it.`,
      );
    return `The audit trail verifies: ${result.checked} entries in ${result.accounts} chain(s)${result.unsealed ? `, ${result.unsealed} not yet sealed` : ''}.\n`;
  },
};
