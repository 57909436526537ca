/**
 * Marketplaces: the reference list with the account's integration state, connecting one
 * (credentials checked with the marketplace, then sealed with the instance secret),
 * shipment settings, and the marketplaces' warehouses.
 */
import { requireAccountWide, type Scope } from '../../platform/auth.js';
import { declareChange } from '../../platform/audit.js';
import type { SecretBox } from '../../platform/crypto.js';
import { AppError, FieldErrorCollector, badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import { openCredentials, readCredentials, sealCredentials } from '../../platform/sealed-credentials.js';
import {
  MarketplaceAuthError,
  MarketplaceUnavailableError,
  type Credentials,
  type MarketplaceAdapter,
} from '../../marketplaces/types.js';
import type { ShopService } from '../shops/service.js';
import type { MarketplaceDirectory, MarketplaceRecord } from './reference.js';
import type {
  IntegrationBody,
  Marketplace,
  MarketplaceListQuery,
  MarketplaceWarehouse,
  MarketplaceWarehouseQuery,
  SettingsBody,
} from './schemas.js';
import type { IntegrationRecord, IntegrationStore } from './store.js';

/** How long GET /v2/marketplaces/warehouses waits for a marketplace's live list before answering from the reference. */
const LIVE_WAREHOUSES_TIMEOUT_MS = 3_000;

const CHECK_TIMEOUT_MS = 20_000;

/** A connected integration as the poll needs it: the credentials opened. */
export interface OpenIntegration {
  accountId: number;
  marketplace: MarketplaceRecord;
  adapter: MarketplaceAdapter;
  shopId: number | null;
  credentials: Credentials;
  settings: IntegrationRecord['settings'];
  cursor: unknown;
}

export class MarketplaceService {
  /** Called when an integration is connected, so its first poll starts at once. */
  private onConnected: (accountId: number, marketplaceId: number) => Promise<void> = async () => {};
  /** Called before an integration is disconnected, so what its orders hold is given back. */
  private onDisconnecting: (accountId: number, marketplaceId: number) => Promise<void> = async () => {};

  constructor(
    private readonly store: IntegrationStore,
    readonly directory: MarketplaceDirectory,
    private readonly adapters: Map<string, MarketplaceAdapter>,
    private readonly shops: ShopService,
    private readonly secretBox: SecretBox,
    /** Ids of marketplaces some fulfilment warehouse is integrated with (data/fulfilment-warehouses.json). */
    private readonly integratedWithWarehouses: () => Promise<Set<number>>,
    private readonly publicUrl: string,
  ) {}

  whenConnected(listener: (accountId: number, marketplaceId: number) => Promise<void>): void {
    this.onConnected = listener;
  }

  whenDisconnecting(listener: (accountId: number, marketplaceId: number) => Promise<void>): void {
    this.onDisconnecting = listener;
  }

  async list(scope: Scope, query: MarketplaceListQuery): Promise<Marketplace[]> {
    const integrations = new Map(
      (await this.store.list(scope.accountId)).map((integration) => [integration.marketplaceId, integration]),
    );
    const integrated = query.isIntegration === undefined ? null : await this.integratedWithWarehouses();
    return this.directory.all
      .filter((record) => query.shippingMode === undefined || this.directory.offers(record, query.shippingMode))
      .filter((record) => !query.onlyWithIntegration || this.adapters.has(record.code))
      .filter((record) => integrated === null || integrated.has(record.id) === query.isIntegration)
      .map((record) => this.present(record, integrations.get(record.id)));
  }

  private present(record: MarketplaceRecord, integration: IntegrationRecord | undefined): Marketplace {
    return {
      id: record.id,
      name: record.name,
      logo: `${this.publicUrl}${record.logo}`,
      legalEntity: record.legalEntity,
      fbs: record.fbs,
      fbo: record.fbo,
      dbs: record.dbs,
      connected: integration !== undefined,
      integrationParams: record.integrationParams.map((param) => ({
        name: param.name,
        key: param.key,
        value: integration?.masked[param.key] ?? '',
      })),
      settings: integration ? integration.settings : null,
      bindingNames: record.bindingNames,
    };
  }

  marketplace(id: number): MarketplaceRecord {
    const record = this.directory.get(id);
    if (!record) throw notFound('Marketplace', id);
    return record;
  }

  /**
   * Checks the credentials with the marketplace and stores them sealed. Nothing is written
   * when the keys are wrong (400), the marketplace refuses them (422) or does not answer (503).
   */
  async connect(scope: Scope, marketplaceId: number, params: IntegrationBody, shopId: number | null): Promise<void> {
    requireAccountWide(scope, 'connect a marketplace');
    const record = this.marketplace(marketplaceId);
    const credentials = this.credentialsFrom(record, params);
    const adapter = this.adapterOf(record);
    try {
      await adapter.checkCredentials(credentials, AbortSignal.timeout(CHECK_TIMEOUT_MS));
    } catch (error) {
      if (error instanceof MarketplaceAuthError) {
        throw unprocessable('marketplace_auth_failed', `${record.name} refused these credentials: ${error.message}`);
      }
      if (error instanceof MarketplaceUnavailableError) {
        throw new AppError(
          503,
          'marketplace_unavailable',
          `${record.name} could not check the credentials now; try again later. ${error.message}`,
        );
      }
      throw error;
    }
    const current = await this.store.get(scope.accountId, marketplaceId);
    const { sealed, masked } = sealCredentials(this.secretBox, credentials);
    // the credentials never: which fields were given, the shop and the modes
    declareChange({
      type: 'marketplace_integrations',
      ids: [marketplaceId],
      before: current ? { shopId: current.shopId, settings: current.settings, credentials: 'set' } : null,
      after: {
        shopId,
        settings: current?.settings ?? { fbsEnabled: record.fbs, fboEnabled: record.fbo, dbsEnabled: record.dbs },
        credentials: 'set',
        credentialFields: Object.keys(credentials),
      },
    });
    await this.store.save(scope.accountId, marketplaceId, {
      shopId,
      sealedCredentials: sealed,
      masked,
      // first connection: every mode the marketplace offers; again: the settings stay
      settings: current?.settings ?? { fbsEnabled: record.fbs, fboEnabled: record.fbo, dbsEnabled: record.dbs },
    });
    await this.onConnected(scope.accountId, marketplaceId);
  }

  /**
   * Ends the integration (extension): its orders are read no more and its sealed credentials
   * are deleted; the orders already read stay. Goods its open orders hold are given back first
   * (nothing would ever ship or cancel them through us again), so a failure half way leaves
   * it connected and a repeat finishes it. Not connected: 404.
   */
  async disconnect(scope: Scope, marketplaceId: number): Promise<void> {
    requireAccountWide(scope, 'disconnect a marketplace');
    const record = this.marketplace(marketplaceId);
    const current = await this.store.get(scope.accountId, marketplaceId);
    if (!current) throw notFound(`An integration with ${record.name}`);
    declareChange({
      type: 'marketplace_integrations',
      ids: [marketplaceId],
      before: { shopId: current.shopId, settings: current.settings, credentials: 'set' },
      after: null,
    });
    await this.onDisconnecting(scope.accountId, marketplaceId);
    if (!(await this.store.remove(scope.accountId, marketplaceId)))
      throw notFound(`An integration with ${record.name}`);
  }

  /** Exactly the marketplace's keys, each a non-empty string; every wrong key named at once. */
  private credentialsFrom(record: MarketplaceRecord, params: IntegrationBody): Credentials {
    return readCredentials(
      params,
      record.integrationParams.map((param) => param.key),
      record.name,
    );
  }

  private adapterOf(record: MarketplaceRecord): MarketplaceAdapter {
    const adapter = this.adapters.get(record.code);
    if (!adapter)
      throw unprocessable('marketplace_without_integration', `${record.name} has no integration in this service.`);
    return adapter;
  }

  async saveSettings(scope: Scope, marketplaceId: number, body: SettingsBody): Promise<void> {
    requireAccountWide(scope, 'change marketplace settings');
    const record = this.marketplace(marketplaceId);
    const problems = new FieldErrorCollector();
    if (body.fbsEnabled && !record.fbs) problems.add('fbsEnabled', `${record.name} offers no FBS`);
    if (body.fboEnabled && !record.fbo) problems.add('fboEnabled', `${record.name} offers no FBO`);
    if (body.dbsEnabled && !record.dbs) problems.add('dbsEnabled', `${record.name} offers no DBS`);
    problems.throwIfAny();
    if (body.fbsEnabled === undefined && body.fboEnabled === undefined && body.dbsEnabled === undefined) {
      throw badRequest('Send at least one of fbsEnabled, fboEnabled, dbsEnabled.', [
        { field: 'fbsEnabled', message: 'at least one setting is required' },
      ]);
    }
    const current = await this.store.get(scope.accountId, marketplaceId);
    if (!current)
      throw conflict(
        'marketplace_not_connected',
        `${record.name} is not connected: send its integration parameters first (POST /v2/marketplaces/integration/${marketplaceId}).`,
      );
    const settings = { ...current.settings };
    if (body.fbsEnabled !== undefined) settings.fbsEnabled = body.fbsEnabled;
    if (body.fboEnabled !== undefined) settings.fboEnabled = body.fboEnabled;
    if (body.dbsEnabled !== undefined) settings.dbsEnabled = body.dbsEnabled;
    declareChange({
      type: 'marketplace_integrations',
      ids: [marketplaceId],
      before: { settings: current.settings },
      after: { settings },
    });
    await this.store.saveSettings(scope.accountId, marketplaceId, settings);
  }

  /**
   * The reference warehouses of the locality. For the seller's own warehouses (FBS, DBS) of a
   * connected marketplace that lists them, the marketplace is asked: only those it names
   * now are kept, under its name (the reference still gives the address: neither list has
   * one to place by FIAS). Not connected, FBO, no list, or no answer in time: the reference.
   */
  async warehouses(scope: Scope, query: MarketplaceWarehouseQuery): Promise<MarketplaceWarehouse[]> {
    const record = this.marketplace(query.marketplaceId);
    const fias = query.fias.trim().toLowerCase();
    const here = record.warehouses.filter(
      (warehouse) =>
        warehouse.shippingModes.includes(query.shippingMode) && warehouse.address.city.fias?.toLowerCase() === fias,
    );
    const live =
      here.length > 0 && query.shippingMode !== 2 ? await this.liveWarehouses(scope.accountId, record.id) : null;
    return here
      .filter((warehouse) => !live || live.has(warehouse.id))
      .map((warehouse) => ({
        id: warehouse.id,
        name: live?.get(warehouse.id) || warehouse.name,
        address: warehouse.address,
      }));
  }

  /** The seller's warehouses as the marketplace lists them now (id → name), or null: use the reference. */
  private async liveWarehouses(accountId: number, marketplaceId: number): Promise<Map<number, string> | null> {
    const integration = await this.openIntegration(accountId, marketplaceId);
    if (!integration) return null;
    try {
      const list = await integration.adapter.listWarehouses(
        integration.credentials,
        AbortSignal.timeout(LIVE_WAREHOUSES_TIMEOUT_MS),
      );
      return list ? new Map(list.map((warehouse) => [warehouse.id, warehouse.name])) : null;
    } catch (error) {
      // a read must not fail because the marketplace does: the reference data answers
      if (error instanceof MarketplaceAuthError || error instanceof MarketplaceUnavailableError) return null;
      throw error;
    }
  }

  // --- for the marketplace orders' poll (inside the service) ---

  allConnected(): Promise<Array<{ accountId: number; marketplaceId: number }>> {
    return this.store.allConnected();
  }

  /** The integration with its credentials opened, or null when it is not connected (any more). */
  async openIntegration(accountId: number, marketplaceId: number): Promise<OpenIntegration | null> {
    const integration = await this.store.get(accountId, marketplaceId);
    const marketplace = this.directory.get(marketplaceId);
    const adapter = marketplace ? this.adapters.get(marketplace.code) : undefined;
    if (!integration || !marketplace || !adapter) return null;
    return {
      accountId,
      marketplace,
      adapter,
      shopId: integration.shopId ?? (await this.shops.firstShopId(accountId)),
      credentials: openCredentials(this.secretBox, integration.sealedCredentials),
      settings: integration.settings,
      cursor: integration.cursor,
    };
  }

  savePollState(
    accountId: number,
    marketplaceId: number,
    state: { cursor?: unknown; error: string | null },
  ): Promise<void> {
    return this.store.savePollState(accountId, marketplaceId, state);
  }
}
