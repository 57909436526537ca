/** SQL of the accounts' contracts with real delivery companies, always scoped by account. */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';

export interface CarrierIntegrationRecord {
  accountId: number;
  companyId: number;
  sealedCredentials: string;
  masked: Record<string, string>;
  testMode: boolean;
  connectedAt: string;
}

function toRecord(row: Selectable<Tables['carrier_integrations']>): CarrierIntegrationRecord {
  return {
    accountId: row.account_id,
    companyId: row.company_id,
    sealedCredentials: row.credentials,
    masked: fromJson(row.masked),
    testMode: flag(row.test_mode),
    connectedAt: row.connected_at,
  };
}

/** A disconnected contract kept for the work after disconnecting (its sealed credentials with it). */
export interface RetiredContract {
  id: number;
  accountId: number;
  companyId: number;
  sealedCredentials: string;
  testMode: boolean;
}

export class CarrierIntegrationStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(accountId: number): Promise<CarrierIntegrationRecord[]> {
    const rows = await this.db
      .selectFrom('carrier_integrations')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('company_id')
      .execute();
    return rows.map(toRecord);
  }

  /** Every account with a contract with a company (what the tracking poll asks about). */
  async accountsOf(companyId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('carrier_integrations')
      .select('account_id')
      .where('company_id', '=', companyId)
      .execute();
    return rows.map((row) => row.account_id);
  }

  /** Stores the contract; `then` queues the work it implies in the same transaction (both commit, or neither). */
  async save(
    accountId: number,
    companyId: number,
    values: { sealedCredentials: string; masked: Record<string, string>; testMode: boolean },
    then: (trx: Transaction<Tables>) => Promise<void> = async () => undefined,
  ): Promise<void> {
    const now = nowIso();
    const columns = {
      credentials: values.sealedCredentials,
      masked: toJson(values.masked),
      test_mode: values.testMode,
      connected_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('carrier_integrations')
        .values({ account_id: accountId, company_id: companyId, ...columns })
        .onConflict((conflict) => conflict.columns(['account_id', 'company_id']).doUpdateSet(columns))
        .execute();
      await then(trx);
    });
  }

  /**
   * Deletes the contract. With `retain`, its sealed credentials move to a retired contract in
   * the same transaction, and `retain` gets that contract's id and the transaction (to queue
   * the work that needs them: both commit together, or neither).
   */
  async remove(
    accountId: number,
    companyId: number,
    retain: ((retiredId: number, trx: Transaction<Tables>) => Promise<void>) | null = null,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const removed = await trx
        .deleteFrom('carrier_integrations')
        .where('account_id', '=', accountId)
        .where('company_id', '=', companyId)
        .returning(['credentials', 'test_mode'])
        .executeTakeFirst();
      if (!removed) return false;
      if (retain) {
        const retired = await trx
          .insertInto('carrier_retired_contracts')
          .values({
            account_id: accountId,
            company_id: companyId,
            credentials: removed.credentials,
            test_mode: flag(removed.test_mode),
            retired_at: nowIso(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await retain(Number(retired.id), trx);
      }
      return true;
    });
  }

  async retired(accountId: number, id: number): Promise<RetiredContract | undefined> {
    const row = await this.db
      .selectFrom('carrier_retired_contracts')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row
      ? {
          id: Number(row.id),
          accountId: row.account_id,
          companyId: row.company_id,
          sealedCredentials: row.credentials,
          testMode: flag(row.test_mode),
        }
      : undefined;
  }

  /** Erases a retired contract (its credentials with it). */
  async forgetRetired(accountId: number, id: number): Promise<void> {
    await this.db
      .deleteFrom('carrier_retired_contracts')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .execute();
  }

  /** Contracts with a company, live ones first (a directory import reads through one of them). */
  async contractsWith(companyId: number): Promise<Array<{ accountId: number; testMode: boolean }>> {
    const rows = await this.db
      .selectFrom('carrier_integrations')
      .select(['account_id', 'test_mode'])
      .where('company_id', '=', companyId)
      .orderBy('test_mode')
      .orderBy('account_id')
      .execute();
    return rows.map((row) => ({ accountId: row.account_id, testMode: flag(row.test_mode) }));
  }
}
