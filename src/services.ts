/** The services of every area, wired once per process (and per test app). */
import type { ServiceConfig } from './config.js';
import type { Database } from './platform/db/database.js';
import path from 'node:path';
import type { SecretBox } from './platform/crypto.js';
import { DatabaseFileStore, FileCatalog, LocalFileStore, type FileStore } from './platform/files.js';
import { TokenResolver } from './platform/auth.js';
import { AccountReadCache } from './platform/cache.js';
import { AccountService } from './modules/accounts/service.js';
import { AccountStore } from './modules/accounts/store.js';
import { EmployeeService } from './modules/accounts/employees.js';
import { AccessService } from './modules/accounts/access.js';
import { AccessStore } from './modules/accounts/access-store.js';
import { ApiKeyService } from './modules/accounts/api-keys.js';
import { AuditService } from './modules/audit/service.js';
import { LinkMailer } from './modules/accounts/link-mail.js';
import { SecondFactorService } from './modules/accounts/second-factor.js';
import { resolveToken } from './modules/accounts/tokens.js';
import { BoxService } from './modules/boxes/service.js';
import { BoxStore } from './modules/boxes/store.js';
import { CalculatorService } from './modules/calculator/service.js';
import { WidgetSettingsService, WidgetSettingsStore } from './modules/calculator/widget-settings.js';
import { ShippingRuleSets, ShippingRuleStore } from './modules/calculator/shipping-rule-sets.js';
import { ReferenceData } from './modules/companies/reference.js';
import { DeliveryCompanyService } from './modules/companies/service.js';
import { ReferenceStore } from './modules/companies/store.js';
import { CountryDirectory } from './modules/lists/countries.js';
import { KitService } from './modules/kits/service.js';
import { KitStore } from './modules/kits/store.js';
import { OrderStatusDirectory } from './modules/lists/order-statuses.js';
import { OrderService } from './modules/orders/service.js';
import { DocumentService } from './modules/documents/service.js';
import { DocumentStore } from './modules/documents/store.js';
import { OrderStore } from './modules/orders/store.js';
import { TrackingService } from './modules/orders/tracking.js';
import { JobQueue } from './platform/jobs.js';
import { Metrics } from './platform/metrics.js';
import { ProductService } from './modules/products/service.js';
import { ProductStore } from './modules/products/store.js';
import { ShopService } from './modules/shops/service.js';
import { ShopStore } from './modules/shops/store.js';
import { WarehouseService } from './modules/warehouses/service.js';
import { SandboxService } from './modules/sandbox/service.js';
import { WarehouseStore } from './modules/warehouses/store.js';
import { EventService } from './modules/events/service.js';
import { EventStore } from './modules/events/store.js';
import { NotificationService } from './modules/notifications/service.js';
import { NotificationStore } from './modules/notifications/store.js';
import { smtpMailer } from './platform/mail.js';
import { TrackingLinks } from './modules/tracking-page/links.js';
import { ReturnLinks } from './modules/returns/links.js';
import { createReturnsArea } from './modules/returns/area.js';
import type { ReturnService } from './modules/returns/service.js';
import type { ReturnPages } from './modules/returns/buyer.js';
import type { ReturnParcels } from './modules/returns/parcels.js';
import { TrackingPageService } from './modules/tracking-page/service.js';
import { StockService } from './modules/fulfilment/stock-service.js';
import { ReturnInspectionService } from './modules/fulfilment/return-inspections.js';
import { ReturnInspectionStore } from './modules/fulfilment/return-inspection-store.js';
import { StockStore } from './modules/fulfilment/stock-store.js';
import { SupplyService } from './modules/fulfilment/supply-service.js';
import { MovementReportService } from './modules/fulfilment/movement-report.js';
import { SupplyStore } from './modules/fulfilment/supply-store.js';
import { PickupService } from './modules/pickups/service.js';
import { pickupCollection } from './modules/pickups/collection.js';
import { PickupStore } from './modules/pickups/store.js';
import { MarketplaceDirectory } from './modules/marketplaces/reference.js';
import { MarketplaceService } from './modules/marketplaces/service.js';
import { IntegrationStore } from './modules/marketplaces/store.js';
import { MarketplaceOrderService } from './modules/marketplace-orders/service.js';
import { MarketplaceOrderStore } from './modules/marketplace-orders/store.js';
import { DeliveryPromiseService } from './modules/delivery-promises/service.js';
import { DeliveryPromiseStore } from './modules/delivery-promises/store.js';
import { OnTimeReports } from './modules/delivery-promises/report.js';
import { DeliveryHistoryMaker, senderLocalitiesOf } from './modules/delivery-promises/test-history.js';
import { LateOrders } from './modules/orders/late-orders.js';
import { buyerMessaging } from './modules/buyer-messages/compose.js';
import type { BuyerMessageDispatcher } from './modules/buyer-messages/dispatch.js';
import type { BuyerMessageService } from './modules/buyer-messages/service.js';
import { AnalyticalReportService } from './modules/reports/analytical-service.js';
import { BillingService } from './modules/reports/billing-service.js';
import {
  DeliveryCharges,
  FulfilmentCharges,
  PickupCharges,
  StorageCharges,
  type BillingRates,
} from './modules/reports/charges.js';
import { dayEndsOf } from './modules/reports/periods.js';
import { ReportStore } from './modules/reports/store.js';
import { readDataFile } from './platform/reference-data.js';
import { AddressImportService } from './modules/addresses/import-service.js';
import { AddressImportStore } from './modules/addresses/import-store.js';
import { DeliveryMethodService } from './modules/delivery-methods/service.js';
import { DeliveryMethodStore } from './modules/delivery-methods/store.js';
import type { ContractCompanies } from './carriers/contracts.js';
import type { AddressService } from './modules/addresses/service.js';
import { addressServiceFor, contractCompaniesFor, marketplaceAdaptersFor } from './service-parts.js';
import { isContractDriver } from './carriers/types.js';
import { CarrierIntegrationService } from './modules/carrier-integrations/service.js';
import { CarrierIntegrationStore } from './modules/carrier-integrations/store.js';
import { CarrierPointImport } from './modules/carrier-integrations/points-import.js';
import { CarrierWebhooks } from './modules/carrier-integrations/webhooks.js';
import { WebhookService } from './modules/webhooks/service.js';
import { WebhookStore } from './modules/webhooks/store.js';
import { WidgetService } from './modules/widget/service.js';
import { ChecklistService } from './modules/checklist/service.js';
import { WidgetStore } from './modules/widget/store.js';

/** With PostgreSQL, the longest a remembered answer is served even if no message about a change arrived (a peer died between commit and message). */
const SHARED_READ_MAX_AGE_MS = 30_000;

export interface Services {
  /** The federal address register's import (modules/addresses). */
  addressImports: AddressImportService;
  /** Answers of account-scoped reads, remembered until the account's data changes. */
  readCache: AccountReadCache;
  /** Bearer tokens -> Scope, remembered briefly. */
  tokens: TokenResolver;
  /** Key of the HMAC binding the dashboard's CSRF tokens to their session (platform/session.ts). */
  sessionCsrfKey: string;
  accounts: AccountService;
  /** Employees' roles and shops: owners manage them. */
  employees: EmployeeService;
  /** One-time links (set-up, invitation, reset, sign-up), sessions, the sign-in policy. */
  access: AccessService;
  /** Employees' TOTP second factor and recovery codes. */
  secondFactor: SecondFactorService;
  /** The links' e-mails (a job each), or the operator's log without SMTP. */
  linkMail: LinkMailer;
  /** Owners' scoped API keys (platform/key-scopes.ts says what each scope allows). */
  apiKeys: ApiKeyService;
  /** The audit trail: reading, sealing, verification, retention (entries are written by platform/audit.ts). */
  audit: AuditService;
  shops: ShopService;
  warehouses: WarehouseService;
  boxes: BoxService;
  products: ProductService;
  kits: KitService;
  orderStatuses: OrderStatusDirectory;
  countries: CountryDirectory;
  /** Generated documents, served at PUBLIC_URL/files/<name>. */
  files: FileStore;
  reference: ReferenceData;
  deliveryCompanies: DeliveryCompanyService;
  widgetSettings: WidgetSettingsService;
  shippingRules: ShippingRuleSets;
  calculator: CalculatorService;
  /** The job table shared by every process. */
  jobs: JobQueue;
  orders: OrderService;
  tracking: TrackingService;
  /** Stickers, acts and waybills, assembly statements. */
  documents: DocumentService;
  /** Order events: the outbox every order change writes, read by cursor. */
  events: EventService;
  /** Notifications made from order events, and their e-mails. */
  notifications: NotificationService;
  /** The recipients' public tracking page behind every trackingUrl of a built-in company. */
  trackingPage: TrackingPageService;
  /** Prometheus metrics of this process (GET /metrics). */
  metrics: Metrics;
  /** Fulfilment stock: products' quantity and rests, reservations of fulfilment orders. */
  stock: StockService;
  /** Supplies of goods to the fulfilment warehouses, and their staff's side. */
  supplies: SupplyService;
  /** The movement report of fulfilment goods (xlsx). */
  movementReport: MovementReportService;
  /** Returned parcels at the fulfilment warehouses, inspected line by line by their staff. */
  returnInspections: ReturnInspectionService;
  /** Pickups: couriers booked to collect a warehouse's orders (contract 4.10). */
  pickups: PickupService;
  /** Marketplaces and the account's integrations with them. */
  marketplaces: MarketplaceService;
  /** Orders read from the connected marketplaces, and the poll that reads them. */
  marketplaceOrders: MarketplaceOrderService;
  /** Bills and agent reports of each billing period, and payments of bills. */
  billing: BillingService;
  /** Analytical reports (xlsx) asked for by the shop owner. */
  analyticalReports: AnalyticalReportService;
  /** An account's own delivery methods (convention 12). */
  deliveryMethods: DeliveryMethodService;
  /** The accounts' own contracts with real delivery companies, and the companies each ships with. */
  carrierIntegrations: CarrierIntegrationService;
  /** The real companies' shared resilience state (breakers, rate limits). */
  contractCompanies: ContractCompanies;
  /** The real companies' pickup-point directories imported on a schedule. */
  carrierPoints: CarrierPointImport;
  /** Status webhooks of real companies (CDEK), one address per account's contract. */
  carrierWebhooks: CarrierWebhooks;
  /** What a test account would wait days for, run now (extension). */
  sandbox: SandboxService;
  /** Webhook endpoints and shops' CMS callbacks fed from the events outbox. */
  webhooks: WebhookService;
  /** The checkout widget: publishable keys, the page's reads and selections, the shop server's confirm. */
  widget: WidgetService;
  /** The first-run checklist, computed from the other areas' data. */
  checklist: ChecklistService;
  /** Addresses from the federal address register: suggestions, cleaning, lookups; a shop's own DaData key. */
  addresses: AddressService;
  /** Delivery promises learnt from arrived parcels; the on-time report; a test account's generated history. */
  deliveryPromises: DeliveryPromiseService;
  onTimeReports: OnTimeReports;
  /** Orders past their promised date found late, hourly. */
  lateOrders: LateOrders;
  /** What buyers hear of their delivery: settings, templates, the log; the dispatcher that sends. */
  buyerMessages: BuyerMessageService;
  buyerMessageDispatcher: BuyerMessageDispatcher;
  /** Returns a buyer (or the shop) starts: rules, approval, their parcels; the buyer's page. */
  returns: ReturnService;
  returnPages: ReturnPages;
  returnParcels: ReturnParcels;
}

export interface ServiceDeps {
  config: ServiceConfig;
  database: Database;
  secretBox: SecretBox;
}

export function createServices({ config, database, secretBox }: ServiceDeps): Services {
  const db = database.db;
  // Exact only when this process owns the database: the embedded SQLite mode.
  // PostgreSQL: shared with the other processes by bootstrap (shareAcrossProcesses); no answer older than 30 s
  const readCache = new AccountReadCache(true, {
    maxBytes: ((config.cacheMb * 5) / 16) * 1024 * 1024,
    ...(database.kind === 'postgres' ? { maxAgeMs: SHARED_READ_MAX_AGE_MS } : {}),
  });
  const tokens = new TokenResolver((token) => resolveToken(db, token), config.authCacheSeconds * 1000, readCache);
  const countries = new CountryDirectory();
  const accountStore = new AccountStore(db);
  const accessStore = new AccessStore(db);
  const secondFactor = new SecondFactorService(accessStore, secretBox);
  const accounts = new AccountService(
    accountStore,
    { timeZone: config.timeZone, loginTokenDays: config.loginTokenDays },
    secondFactor,
  );
  const jobs = new JobQueue(db, database.kind);
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : null;
  const linkMail = new LinkMailer(jobs, secretBox, mailer);
  const access = new AccessService(accessStore, accountStore, secondFactor, linkMail, {
    publicUrl: config.publicUrl,
    signup: config.signup,
    timeZone: config.timeZone,
  });
  const employees = new EmployeeService(accountStore, access, tokens);
  const apiKeys = new ApiKeyService(db, (accountId) => tokens.revoke(accountId));
  const audit = new AuditService(db, database.kind);
  const trackingLinks = new TrackingLinks(config.publicUrl, secretBox.derive('tracking-page'));
  const returnLinks = new ReturnLinks(config.publicUrl, secretBox.derive('returns-page'));
  /** A delivered order's returns page (its shop's), for the tracking page and the delivered message. */
  const returnsPageOf = (accountId: number, shopId: number | null, orderId: number) =>
    shopId === null ? null : returnLinks.orderUrl({ accountId, shopId, orderId });
  const reference = new ReferenceData(new ReferenceStore(db), {
    publicUrl: config.publicUrl,
    dataDir: config.dataDir,
    trackingLink: (parcel) => trackingLinks.url(parcel),
    accountCompanies: () => carrierIntegrations,
  });
  const metrics = new Metrics({ database, jobs });
  // before warehouses and orders: a warehouse's and a courier order's address are checked against the register as they are made
  const addresses = addressServiceFor(config, db, secretBox, metrics);
  const warehouses = new WarehouseService(new WarehouseStore(db), countries, reference.registry, addresses);
  // the register's localities take our localities' centres and populations; none before the reference data is loaded
  const addressImports = new AddressImportService(new AddressImportStore(db, database.kind), () => {
    try {
      return reference.localities;
    } catch {
      return null;
    }
  });
  const shops = new ShopService(new ShopStore(db), warehouses, accounts, secretBox, tokens, readCache);
  const boxes = new BoxService(new BoxStore(db));
  // products, kits and shops show stock: built after it, handed to it as a declared dependency
  const stockStore = new StockStore(db);
  const returnInspections = new ReturnInspectionService(new ReturnInspectionStore(db), stockStore, () => products);
  const stock: StockService = new StockService(
    stockStore,
    warehouses,
    () => ({ products, kits, shops }),
    returnInspections,
  );
  const marketplaceDirectory = new MarketplaceDirectory();
  const bindingNamesOf = (marketplaceId: number) => {
    const record = marketplaceDirectory.get(marketplaceId);
    return record ? { name: record.name, bindingNames: Object.keys(record.bindingNames) } : undefined;
  };
  const products = new ProductService(new ProductStore(db, database.kind), countries, stock, readCache, bindingNamesOf);
  const kits = new KitService(new KitStore(db), shops, products);
  const fileCatalog = new FileCatalog(db);
  const fileOptions = { publicUrl: config.publicUrl, ttlDays: config.fileTtlDays, linkHours: config.fileLinkHours };
  const localFiles = new LocalFileStore(fileCatalog, { ...fileOptions, directory: path.join(config.dataDir, 'files') });
  // several processes on one PostgreSQL must serve each other's files: the database holds them (FILE_STORE)
  const files =
    config.fileStore === 'database' ? new DatabaseFileStore(fileCatalog, db, fileOptions, localFiles) : localFiles;
  const deliveryCompanies = new DeliveryCompanyService(reference, new ReferenceStore(db), shops);
  const widgetSettings = new WidgetSettingsService(new WidgetSettingsStore(db), shops);
  const shippingRules = new ShippingRuleSets(new ShippingRuleStore(db), shops, readCache);
  const deliveryMethods = new DeliveryMethodService(new DeliveryMethodStore(db), reference, readCache);
  const contractCompanies = contractCompaniesFor(config, metrics);
  const carrierIntegrations: CarrierIntegrationService = new CarrierIntegrationService(
    new CarrierIntegrationStore(db),
    contractCompanies,
    reference.registry,
    secretBox,
    config.publicUrl,
  );
  const carrierPoints = new CarrierPointImport(
    carrierIntegrations,
    contractCompanies,
    reference,
    jobs,
    config.carrierPointsImportHours,
  );
  carrierIntegrations.onConnected((companyId, _accountId, trx) => carrierPoints.queueImport(companyId, trx));
  const deliveryPromises = new DeliveryPromiseService(new DeliveryPromiseStore(db), {
    enabled: config.deliveryPromises,
  });
  const onTimeReports = new OnTimeReports(new DeliveryPromiseStore(db), reference);
  const deliveryHistory = new DeliveryHistoryMaker(deliveryPromises, reference);
  const calculator = new CalculatorService(reference, widgetSettings, {
    promises: deliveryPromises,
    cacheSeconds: config.calculatorCacheSeconds,
    cacheBytes: (config.cacheMb / 4) * 1024 * 1024,
    kits,
    observer: metrics,
    ownMethods: deliveryMethods,
    shippingRules,
  });
  const orderStatuses = new OrderStatusDirectory();
  const orderStore = new OrderStore(db, database.kind);
  const orders = new OrderService(
    orderStore,
    shops,
    products,
    calculator,
    reference,
    orderStatuses,
    jobs,
    readCache,
    stock,
    deliveryMethods,
    addresses,
  );
  const tracking = new TrackingService(
    orderStore,
    orders,
    reference,
    jobs,
    {
      simulationStepSeconds: config.simulationStepSeconds,
      pollSeconds: config.trackingPollSeconds,
      secret: secretBox.derive('carrier-push'),
    },
    accounts,
    pickupCollection(warehouses),
    deliveryPromises,
  );
  const lateOrders = new LateOrders(orderStore, orders, accounts);
  const carrierWebhooks = new CarrierWebhooks(carrierIntegrations, tracking, jobs, {
    publicUrl: config.publicUrl,
    secret: secretBox.derive('carrier-webhooks'),
  });
  carrierIntegrations.onConnected((companyId, accountId, trx) =>
    carrierWebhooks.queueSubscription(accountId, companyId, trx),
  );
  carrierIntegrations.onDisconnected(carrierWebhooks);
  const contractDriverOf = async (accountId: number, companyId: number) => {
    const driver = (await reference.registry.companyOf(accountId, companyId))?.driver;
    return driver && isContractDriver(driver) ? driver : null;
  };
  const companyLabels = {
    printsOwn: async (accountId: number, companyId: number) => (await contractDriverOf(accountId, companyId)) !== null,
    label: async (accountId: number, companyId: number, trackNumber: string, signal: AbortSignal) =>
      (await contractDriverOf(accountId, companyId))?.label(trackNumber, signal) ?? null,
  };
  const documents = new DocumentService(new DocumentStore(db), orders, warehouses, files, boxes, companyLabels, jobs, {
    syncLabels: config.stickerSyncLabels,
  });
  const events = new EventService(new EventStore(db, database.kind), jobs);
  const notifications = new NotificationService(
    new NotificationStore(db),
    events,
    shops,
    accounts,
    orders,
    orderStatuses,
    jobs,
    mailer,
    { dispatchSeconds: 5 },
  );
  const { buyerMessages, buyerMessageDispatcher } = buyerMessaging({
    db,
    shops,
    orders,
    accounts,
    reference,
    secretBox,
    events,
    jobs,
    mailer,
    urls: config,
    returnsPage: returnsPageOf,
  });
  const supplies = new SupplyService(
    new SupplyStore(db),
    stock,
    products,
    warehouses,
    shops,
    accounts,
    files,
    orders,
    jobs,
    { acceptSeconds: config.fulfilmentAcceptSeconds },
  );
  const movementReport = new MovementReportService(stock.store, products, warehouses, shops, files);
  const pickups = new PickupService(
    new PickupStore(db),
    warehouses,
    shops,
    deliveryCompanies,
    reference,
    orders,
    tracking,
    accounts,
    files,
    jobs,
    {
      simulationSeconds: config.pickupSimulationSeconds,
      pollSeconds: config.trackingPollSeconds || 300,
    },
  );
  const trackingPage = new TrackingPageService(
    trackingLinks,
    tracking,
    reference,
    orderStatuses,
    accounts,
    (accountId, shopId, orderId) => buyerMessages.telegramLink(accountId, shopId, orderId),
    returnsPageOf,
  );
  const { returns, returnPages, returnParcels } = createReturnsArea({
    db,
    orders,
    shops,
    reference,
    files,
    links: returnLinks,
    readCache,
    accounts,
    events,
    jobs,
    buyerMessages,
  });
  const adapters = marketplaceAdaptersFor(config);

  const integratedWithWarehouses = async () =>
    new Set((await warehouses.fulfilmentWarehouses()).flatMap((warehouse) => warehouse.integrationMarketplaceIds));
  const marketplaces = new MarketplaceService(
    new IntegrationStore(db),
    marketplaceDirectory,
    adapters,
    shops,
    secretBox,
    integratedWithWarehouses,
    config.publicUrl,
  );
  const marketplaceOrders = new MarketplaceOrderService(
    new MarketplaceOrderStore(db),
    marketplaces,
    products,
    jobs,
    stock,
    { pollSeconds: config.marketplacePollSeconds },
  );
  const reportStore = new ReportStore(db, database.kind);
  const rates = readDataFile<BillingRates>('billing.json');
  const fulfilmentNames = async (id: number) =>
    (await warehouses.fulfilmentWarehouses()).find((warehouse) => warehouse.id === id)?.name ?? `Склад ${id}`;
  const billing = new BillingService(
    reportStore,
    files,
    accounts,
    orders,
    jobs,
    { period: config.billingPeriod, rates },
    [
      new DeliveryCharges(orders),
      new FulfilmentCharges(stock, rates.fulfilment),
      new StorageCharges(stock, rates.storage, dayEndsOf, fulfilmentNames),
      new PickupCharges(pickups),
    ],
  );
  const sandbox = new SandboxService(billing, pickups, tracking, carrierIntegrations, deliveryHistory, {
    senderLocalities: (scope) => senderLocalitiesOf(warehouses, reference, scope),
  });
  const analyticalReports = new AnalyticalReportService(reportStore, files, orders, stock, products, warehouses, jobs, {
    syncRows: config.reportSyncRows,
  });
  const webhooks = new WebhookService(
    new WebhookStore(db),
    events,
    shops,
    accounts,
    orders,
    notifications,
    jobs,
    secretBox,
    {
      retryFirstSeconds: config.webhookRetryFirstSeconds,
      retryMaxSeconds: config.webhookRetryMaxSeconds,
      disableAfterHours: config.webhookDisableAfterHours,
      allowPrivateTargets: config.webhookAllowPrivateTargets,
      timeoutMs: config.webhookTimeoutSeconds * 1000,
      secretGraceHours: config.webhookSecretGraceHours,
    },
    stock,
  );
  const widget = new WidgetService(new WidgetStore(db), shops, reference, calculator, widgetSettings, orders, accounts);
  const checklist = new ChecklistService(warehouses, shops, carrierIntegrations, widget, orders);
  return {
    addressImports,
    sessionCsrfKey: secretBox.derive('dashboard-csrf'),
    widget,
    checklist,
    addresses,
    deliveryPromises,
    onTimeReports,
    lateOrders,
    buyerMessages,
    buyerMessageDispatcher,
    returns,
    returnPages,
    returnParcels,
    sandbox,
    webhooks,
    carrierIntegrations,
    carrierPoints,
    carrierWebhooks,
    contractCompanies,
    deliveryMethods,
    billing,
    analyticalReports,
    marketplaces,
    marketplaceOrders,
    metrics,
    stock,
    supplies,
    returnInspections,
    pickups,
    movementReport,
    trackingPage,
    readCache,
    events,
    notifications,
    documents,
    files,
    tokens,
    accounts,
    employees,
    access,
    secondFactor,
    linkMail,
    apiKeys,
    audit,
    shops,
    warehouses,
    boxes,
    products,
    kits,
    orderStatuses,
    countries,
    reference,
    deliveryCompanies,
    widgetSettings,
    shippingRules,
    calculator,
    jobs,
    orders,
    tracking,
  };
}
