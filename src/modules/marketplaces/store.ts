/** SQL of the accounts' marketplace integrations, always scoped by account. */
import type { Kysely, Selectable } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import { flag, fromJson, nowIso, toJson } from '../../platform/db/values.js';

export interface IntegrationRecord {
  accountId: number;
  marketplaceId: number;
  shopId: number | null;
  sealedCredentials: string;
  masked: Record<string, string>;
  settings: { fbsEnabled: boolean; fboEnabled: boolean; dbsEnabled: boolean };
  cursor: unknown;
  connectedAt: string;
  lastPollAt: string | null;
  lastError: string | null;
}

export interface NewIntegration {
  shopId: number | null;
  sealedCredentials: string;
  masked: Record<string, string>;
  settings: IntegrationRecord['settings'];
}

function toRecord(row: Selectable<Tables['marketplace_integrations']>): IntegrationRecord {
  return {
    accountId: row.account_id,
    marketplaceId: row.marketplace_id,
    shopId: row.shop_id,
    sealedCredentials: row.credentials,
    masked: fromJson(row.masked),
    settings: {
      fbsEnabled: flag(row.fbs_enabled),
      fboEnabled: flag(row.fbo_enabled),
      dbsEnabled: flag(row.dbs_enabled),
    },
    cursor: row.cursor === null ? null : fromJson(row.cursor),
    connectedAt: row.connected_at,
    lastPollAt: row.last_poll_at,
    lastError: row.last_error,
  };
}

export class IntegrationStore {
  constructor(private readonly db: Kysely<Tables>) {}

  async list(accountId: number): Promise<IntegrationRecord[]> {
    const rows = await this.db
      .selectFrom('marketplace_integrations')
      .selectAll()
      .where('account_id', '=', accountId)
      .execute();
    return rows.map(toRecord);
  }

  async get(accountId: number, marketplaceId: number): Promise<IntegrationRecord | undefined> {
    const row = await this.db
      .selectFrom('marketplace_integrations')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('marketplace_id', '=', marketplaceId)
      .executeTakeFirst();
    return row ? toRecord(row) : undefined;
  }

  /** Every connected (account, marketplace): what the scheduler polls. */
  async allConnected(): Promise<Array<{ accountId: number; marketplaceId: number }>> {
    const rows = await this.db
      .selectFrom('marketplace_integrations')
      .select(['account_id', 'marketplace_id'])
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ accountId: row.account_id, marketplaceId: row.marketplace_id }));
  }

  /**
   * Stores checked credentials. New credentials may be another seller account: the cursor
   * starts again (orders already stored are not stored twice, by their unique index).
   */
  async save(accountId: number, marketplaceId: number, values: NewIntegration): Promise<void> {
    const now = nowIso();
    const connection = {
      shop_id: values.shopId,
      credentials: values.sealedCredentials,
      masked: toJson(values.masked),
      cursor: null,
      connected_at: now,
      last_error: null,
      updated_at: now,
    };
    const settings = {
      fbs_enabled: values.settings.fbsEnabled,
      fbo_enabled: values.settings.fboEnabled,
      dbs_enabled: values.settings.dbsEnabled,
    };
    await this.db
      .insertInto('marketplace_integrations')
      .values({ account_id: accountId, marketplace_id: marketplaceId, ...connection, ...settings })
      // connected again: new credentials, the settings kept
      .onConflict((conflict) => conflict.columns(['account_id', 'marketplace_id']).doUpdateSet(connection))
      .execute();
  }

  /** Deletes the integration, its sealed credentials with it; false when there was none. */
  async remove(accountId: number, marketplaceId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('marketplace_integrations')
      .where('account_id', '=', accountId)
      .where('marketplace_id', '=', marketplaceId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async saveSettings(
    accountId: number,
    marketplaceId: number,
    settings: IntegrationRecord['settings'],
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('marketplace_integrations')
      .set({
        fbs_enabled: settings.fbsEnabled,
        fbo_enabled: settings.fboEnabled,
        dbs_enabled: settings.dbsEnabled,
        updated_at: nowIso(),
      })
      .where('account_id', '=', accountId)
      .where('marketplace_id', '=', marketplaceId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Where the poll stopped, and how it ended (error null: well). */
  async savePollState(
    accountId: number,
    marketplaceId: number,
    state: { cursor?: unknown; error: string | null },
  ): Promise<void> {
    const now = nowIso();
    await this.db
      .updateTable('marketplace_integrations')
      .set({
        ...(state.cursor !== undefined ? { cursor: toJson(state.cursor) } : {}),
        last_poll_at: now,
        last_error: state.error,
        updated_at: now,
      })
      .where('account_id', '=', accountId)
      .where('marketplace_id', '=', marketplaceId)
      .execute();
  }
}
