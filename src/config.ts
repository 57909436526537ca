import path from 'node:path';
import { PROJECT_ROOT } from './platform/reference-data.js';

/** Every setting of the service, read once from the environment and validated. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `sqlite:<file>` (embedded) or `postgres://...` */
  databaseUrl: string;
  databaseKind: 'sqlite' | 'postgres';
  /** Maximum connections of the PostgreSQL pool. */
  databasePoolMax: number;
  publicUrl: string;
  logLevel: LogLevel;
  /** Default time zone of new accounts ("today" and business days are counted in it). */
  timeZone: string;
  /** Key material for encrypting secrets at rest (shop API keys, marketplace credentials). */
  secretKey: string | null;
  /** Largest request body accepted, bytes (file uploads set their own, larger limit). */
  bodyLimit: number;
  /** Lifetime of tokens issued by POST /v2/auth/login, days. */
  loginTokenDays: number;
  /** How long generated files (labels, acts, reports) stay downloadable, days. */
  fileTtlDays: number;
  /** Hours a new file's link works without a token; then only with a token of its account, until FILE_TTL_DAYS. */
  fileLinkHours: number;
  /**
   * Where generated files' bytes live: `database` (the database itself: every process sharing
   * it serves every file; the default with PostgreSQL) or `local` (DATA_DIR/files of this
   * process; the default with SQLite).
   */
  fileStore: FileStoreKind;
  /** How long a process remembers a resolved token, seconds (0: ask the database every time). */
  authCacheSeconds: number;
  /** How long a process reuses an identical calculator answer (built-in companies only), seconds (0: never). */
  calculatorCacheSeconds: number;
  /**
   * Memory for what the process remembers, in MB: three eighths for remembered answers (pages of
   * orders, shops...), an eighth for the streets of the localities addresses are typed in, a
   * quarter for identical calculator answers, a quarter for SQLite's page cache.
   */
  cacheMb: number;
  /** Delivery promises learnt from arrived parcels on calculator offers, widget quotes and orders (DELIVERY_PROMISES, on). */
  deliveryPromises: boolean;
  /** Seconds between the simulated steps of a built-in company's parcel (0: no simulation). */
  simulationStepSeconds: number;
  /** Seconds between polls of delivery companies for their parcels' statuses. */
  trackingPollSeconds: number;
  /** Built-in fulfilment warehouses take a confirmed supply in after this many seconds and accept it as declared after as many more (0: only their staff do). */
  fulfilmentAcceptSeconds: number;
  /** Seconds until a built-in company answers a pickup booking (its collection comes on the pickup day's interval); 0: at once. */
  pickupSimulationSeconds: number;
  /** Length of a billing period, in the account's time zone: bills and agent reports are made at the end of each. */
  billingPeriod: BillingPeriodKind;
  /** Analytical reports estimated at up to this many rows are written in the request; larger ones by a job. */
  reportSyncRows: number;
  /** Sticker sets of up to this many labels are written in the request; larger ones by a job. */
  stickerSyncLabels: number;
  /** SMTP server for notification e-mails (`smtp://host:port`, `smtps://user:pass@host`); null: notifications are only stored. May hold a password: never logged. */
  smtpUrl: string | null;
  /** Sender of notification e-mails: `addr@host` or `Name <addr@host>`. */
  mailFrom: string;
  /** How long a stop (SIGTERM, SIGINT) waits for requests and jobs under way before cutting them, seconds. */
  shutdownGraceSeconds: number;
  /** SQLite `synchronous`: `full` (default) makes an acknowledged write survive power loss; `normal` may lose the last ones. */
  sqliteSynchronous: SqliteSynchronous;
  /** Origins whose browser pages may call the API (`https://shop.example`); `['*']` any; empty: no CORS headers at all. */
  corsOrigins: string[];
  /** The audit trail (AUDIT_TRAIL, default on): every change recorded with who made it, in its own transaction. */
  auditTrail: boolean;
  /** Requests a minute one token (or, without one, one IP address) may make to /v2 in this process (0: no limit). */
  rateLimitPerMinute: number;
  /** POST /v2/auth/login attempts a minute for one IP address and e-mail, in this process (0: no limit). */
  loginRateLimitPerMinute: number;
  /** Wrong passwords a minute from one IP address over all e-mails, in this process (0: no limit). */
  loginFailuresPerAddressPerMinute: number;
  /** E-mails with a link (a password reset, a sign-up) an hour to one address, in this process (0: no limit). */
  linkMailsPerAddressPerHour: number;
  /**
   * Who may make an account by themselves: `off` (the operator only: the first start, the CLI),
   * `invite` (a person holding the operator's sign-up invitation), `open` (anyone, by the sign-up
   * page, confirming the e-mail).
   */
  signup: SignUpMode;
  /** Where the built checkout widget is (npm run build writes dist/widget). */
  widgetDir: string;
  /** Where the built dashboard is (npm run build writes dist/app), served at /app/. */
  appDir: string;
  /** The dashboard map's tile URL template ({z}/{x}/{y}); null: points on a plain map, nothing asked of a third party. */
  appMapTiles: string | null;
  /** Attribution the tile source requires, shown on the map. */
  appMapAttribution: string;
  /** Checkout widget calls a minute per publishable key and IP address (0: none). */
  widgetRateLimitPerMinute: number;
  /** Bearer token GET /metrics requires; null: /metrics is public like /health. */
  metricsToken: string | null;
  /** Base URLs of the marketplaces' seller APIs (tests point them at loopback fakes). */
  marketplaceOzonUrl: string;
  marketplaceWildberriesUrl: string;
  marketplaceYandexUrl: string;
  /** Seconds between polls of each connected marketplace for new orders (0: no polling). */
  marketplacePollSeconds: number;
  /** The sandbox marketplace receives one order every this many seconds (0: none). */
  marketplaceSandboxOrderSeconds: number;
  /** Base URLs of the real delivery companies' APIs, live and test (tests point them at loopback fakes). */
  carrierCdekUrl: string;
  carrierCdekTestUrl: string;
  carrierBoxberryUrl: string;
  carrierRussianPostUrl: string;
  carrierRussianPostTrackingUrl: string;
  carrierYandexDeliveryUrl: string;
  carrierYandexDeliveryTestUrl: string;
  /** DaData's suggestions and cleaning APIs, asked with a shop's own key where the register has no house (tests point them at a loopback fake). */
  dadataSuggestionsUrl: string;
  dadataCleanerUrl: string;
  /** The buyers' message channels' APIs: SMS.ru, SMSC and Telegram's Bot API (tests point them at loopback fakes). */
  smsRuUrl: string;
  smscUrl: string;
  telegramApiUrl: string;
  /** Longest wait for one call to a real delivery company (each retry waits again, all under the caller's deadline). */
  carrierTimeoutMs: number;
  /** Hours between imports of the real companies' pickup-point directories; 0: only when a contract is connected. */
  carrierPointsImportHours: number;
  /** Webhooks and CMS callbacks: the back-off's first step (doubling per failure, ±20 % jitter) and its cap, seconds. */
  webhookRetryFirstSeconds: number;
  webhookRetryMaxSeconds: number;
  /** An endpoint failing without a success this long (hours, decimals allowed: 0.001 is 3.6 s) is disabled and its account told. */
  webhookDisableAfterHours: number;
  /** Let webhook and CMS URLs reach loopback, private and link-local addresses (self-hosted shops, tests). */
  webhookAllowPrivateTargets: boolean;
  webhookTimeoutSeconds: number;
  /** After a secret's rotation the old one signs too for this long. */
  webhookSecretGraceHours: number;
  /** Endpoints one process sends to at once. */
  webhookConcurrency: number;
}

/** The settings the services are built with (src/services.ts): the rest are the HTTP server's and the CLI's. */
export type ServiceConfig = Pick<
  Config,
  | 'timeZone'
  | 'loginTokenDays'
  | 'authCacheSeconds'
  | 'calculatorCacheSeconds'
  | 'deliveryPromises'
  | 'smsRuUrl'
  | 'smscUrl'
  | 'telegramApiUrl'
  | 'cacheMb'
  | 'dataDir'
  | 'publicUrl'
  | 'fileTtlDays'
  | 'fileLinkHours'
  | 'fileStore'
  | 'simulationStepSeconds'
  | 'trackingPollSeconds'
  | 'smtpUrl'
  | 'mailFrom'
  | 'fulfilmentAcceptSeconds'
  | 'pickupSimulationSeconds'
  | 'marketplaceOzonUrl'
  | 'marketplaceWildberriesUrl'
  | 'marketplaceYandexUrl'
  | 'marketplacePollSeconds'
  | 'marketplaceSandboxOrderSeconds'
  | 'billingPeriod'
  | 'reportSyncRows'
  | 'stickerSyncLabels'
  | 'carrierCdekUrl'
  | 'carrierCdekTestUrl'
  | 'carrierBoxberryUrl'
  | 'carrierRussianPostUrl'
  | 'carrierRussianPostTrackingUrl'
  | 'carrierYandexDeliveryUrl'
  | 'carrierYandexDeliveryTestUrl'
  | 'dadataSuggestionsUrl'
  | 'dadataCleanerUrl'
  | 'carrierTimeoutMs'
  | 'carrierPointsImportHours'
  | 'webhookRetryFirstSeconds'
  | 'webhookRetryMaxSeconds'
  | 'webhookDisableAfterHours'
  | 'webhookAllowPrivateTargets'
  | 'webhookTimeoutSeconds'
  | 'webhookSecretGraceHours'
  | 'signup'
>;

export const SIGNUP_MODES = ['off', 'invite', 'open'] as const;
export type SignUpMode = (typeof SIGNUP_MODES)[number];

export const BILLING_PERIODS = ['month', 'week', 'day'] as const;
export type BillingPeriodKind = (typeof BILLING_PERIODS)[number];

export const FILE_STORES = ['local', 'database'] as const;
export type FileStoreKind = (typeof FILE_STORES)[number];

export const SQLITE_SYNCHRONOUS = ['full', 'normal'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function readInteger(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    problems.push(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
    return fallback;
  }
  const value = Number(raw);
  if (value < min || value > max) {
    problems.push(`${name} must be between ${min} and ${max}, got ${value}`);
    return fallback;
  }
  return value;
}

function readDecimal(env: Env, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.trim());
  if (!/^\d+(\.\d+)?$/.test(raw.trim()) || value < min || value > max) {
    problems.push(`${name} must be a number between ${min} and ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

/** true/false, 1/0, yes/no, on/off. */
function readSwitch(env: Env, name: string, fallback: boolean, problems: string[]): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  problems.push(`${name} must be true or false, got "${env[name]}"`);
  return fallback;
}

/** `user@host` or `Name <user@host>` (MAIL_FROM). */
export function isMailAddress(value: string): boolean {
  return /^(?:[^<>@]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(value.trim());
}

/** CORS_ORIGINS: `*`, or comma-separated origins as browsers send them (scheme, host, port; no path). */
function readCorsOrigins(env: Env, problems: string[]): string[] {
  const items = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.includes('*')) return ['*'];
  const origins: string[] = [];
  for (const item of items) {
    let origin: string | null = null;
    try {
      const url = new URL(item);
      // A browser's Origin header is exactly scheme://host[:port]: anything more would never match.
      if (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        url.origin === item.replace(/\/$/, '').toLowerCase()
      )
        origin = url.origin;
    } catch {
      // reported below
    }
    if (origin === null)
      problems.push(
        `CORS_ORIGINS must be * or comma-separated origins such as https://shop.example or http://localhost:3000 (no path), got "${item}"`,
      );
    else origins.push(origin);
  }
  return origins;
}

/** APP_MAP_TILES: an https:// (or http://) template with {z}, {x} and {y}; empty: no tiles. */
function readTileTemplate(env: Env, problems: string[]): string | null {
  const raw = env.APP_MAP_TILES?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw.replaceAll('{', '%7B').replaceAll('}', '%7D'));
    if (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      ['{z}', '{x}', '{y}'].every((part) => raw.includes(part))
    )
      return raw;
  } catch {
    // reported below
  }
  problems.push(
    `APP_MAP_TILES must be an http(s) URL template with {z}, {x} and {y}, such as https://tile.openstreetmap.org/{z}/{x}/{y}.png, got "${raw}"`,
  );
  return null;
}

function readHttpUrl(env: Env, name: string, fallback: string, problems: string[]): string {
  const raw = env[name]?.trim() || fallback;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return raw.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  problems.push(`${name} must be an http:// or https:// URL, got "${raw}"`);
  return fallback;
}

/** Reads the configuration; throws ConfigError listing every bad value at once. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const port = readInteger(env, 'PORT', 8080, 0, 65535, problems);
  const host = env.HOST?.trim() || '127.0.0.1';
  const dataDir = path.resolve(env.DATA_DIR?.trim() || './data');

  let databaseUrl = env.DATABASE_URL?.trim() || `sqlite:${path.join(dataDir, 'service.db')}`;
  let databaseKind: Config['databaseKind'] = 'sqlite';
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    databaseKind = 'postgres';
    try {
      new URL(databaseUrl);
    } catch {
      problems.push(`DATABASE_URL is not a valid postgres:// URL`);
    }
  } else if (databaseUrl.startsWith('sqlite:')) {
    if (databaseUrl.length <= 'sqlite:'.length)
      problems.push('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/service.db');
  } else if (databaseUrl.startsWith('file:') || databaseUrl.startsWith('/') || databaseUrl.startsWith('.')) {
    databaseUrl = `sqlite:${databaseUrl.replace(/^file:/, '')}`;
  } else {
    problems.push(
      `DATABASE_URL must start with postgres://, postgresql:// or sqlite:, got "${databaseUrl.split(':')[0]}:..."`,
    );
  }

  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);

  const timeZone = env.TIME_ZONE?.trim() || 'Europe/Moscow';
  if (!isValidTimeZone(timeZone))
    problems.push(`TIME_ZONE must be an IANA time zone such as Europe/Moscow, got "${timeZone}"`);

  const displayHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const publicUrl = (env.PUBLIC_URL?.trim() || `http://${displayHost}:${port}`).replace(/\/+$/, '');
  try {
    const parsed = new URL(publicUrl);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      problems.push('PUBLIC_URL must be an http:// or https:// URL');
  } catch {
    problems.push(`PUBLIC_URL must be an absolute URL such as https://delivery.example.com, got "${publicUrl}"`);
  }

  const secretKey = env.SECRET_KEY?.trim() || null;
  if (secretKey !== null && secretKey.length < 32) problems.push('SECRET_KEY must be at least 32 characters long');

  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl !== null) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(smtpUrl);
    } catch {
      // reported below without the value: it may hold a password
    }
    if (!parsed || (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || !parsed.hostname)
      problems.push('SMTP_URL must be an smtp:// or smtps:// URL with a host, e.g. smtp://mail.example.com:587');
  }
  let mailDomain = 'localhost';
  try {
    mailDomain = new URL(publicUrl).hostname || 'localhost';
  } catch {
    // PUBLIC_URL is reported above
  }
  const mailFrom = env.MAIL_FROM?.trim() || `Delivery service <noreply@${mailDomain}>`;
  if (!isMailAddress(mailFrom))
    problems.push(
      `MAIL_FROM must be an e-mail address such as noreply@example.com or "Shop <noreply@example.com>", got "${mailFrom}"`,
    );

  const sqliteSynchronous = (env.SQLITE_SYNCHRONOUS?.trim().toLowerCase() || 'full') as SqliteSynchronous;
  if (!SQLITE_SYNCHRONOUS.includes(sqliteSynchronous))
    problems.push(
      `SQLITE_SYNCHRONOUS must be one of ${SQLITE_SYNCHRONOUS.join(', ')}, got "${env.SQLITE_SYNCHRONOUS}"`,
    );
  const fileStore = (env.FILE_STORE?.trim().toLowerCase() ||
    (databaseKind === 'postgres' ? 'database' : 'local')) as FileStoreKind;
  if (!FILE_STORES.includes(fileStore))
    problems.push(`FILE_STORE must be one of ${FILE_STORES.join(', ')}, got "${env.FILE_STORE}"`);
  const billingPeriod = (env.BILLING_PERIOD?.trim().toLowerCase() || 'month') as BillingPeriodKind;
  if (!BILLING_PERIODS.includes(billingPeriod))
    problems.push(`BILLING_PERIOD must be one of ${BILLING_PERIODS.join(', ')}, got "${env.BILLING_PERIOD}"`);
  const signup = (env.SIGNUP?.trim().toLowerCase() || 'off') as SignUpMode;
  if (!SIGNUP_MODES.includes(signup))
    problems.push(`SIGNUP must be one of ${SIGNUP_MODES.join(', ')}, got "${env.SIGNUP}"`);
  const metricsToken = env.METRICS_TOKEN?.trim() || null;
  if (metricsToken !== null && (metricsToken.length < 16 || /\s/.test(metricsToken)))
    problems.push('METRICS_TOKEN must be at least 16 characters long, without spaces');

  const config: Config = {
    port,
    host,
    dataDir,
    databaseUrl,
    databaseKind,
    databasePoolMax: readInteger(env, 'DATABASE_POOL_MAX', 10, 1, 1000, problems),
    publicUrl,
    logLevel,
    timeZone,
    secretKey,
    bodyLimit: readInteger(env, 'BODY_LIMIT_BYTES', 2 * 1024 * 1024, 1024, 1024 * 1024 * 1024, problems),
    loginTokenDays: readInteger(env, 'LOGIN_TOKEN_DAYS', 30, 1, 3650, problems),
    fileTtlDays: readInteger(env, 'FILE_TTL_DAYS', 30, 1, 3650, problems),
    fileLinkHours: readInteger(env, 'FILE_LINK_HOURS', 72, 0, 87_600, problems),
    fileStore,
    authCacheSeconds: readInteger(env, 'AUTH_CACHE_SECONDS', 5, 0, 3600, problems),
    calculatorCacheSeconds: readInteger(env, 'CALCULATOR_CACHE_SECONDS', 30, 0, 3600, problems),
    cacheMb: readInteger(env, 'CACHE_MB', 64, 8, 65536, problems),
    deliveryPromises: readSwitch(env, 'DELIVERY_PROMISES', true, problems),
    simulationStepSeconds: readInteger(env, 'SIMULATION_STEP_SECONDS', 60, 0, 7 * 86400, problems),
    trackingPollSeconds: readInteger(env, 'TRACKING_POLL_SECONDS', 300, 0, 86400, problems),
    fulfilmentAcceptSeconds: readInteger(env, 'FULFILMENT_ACCEPT_SECONDS', 60, 0, 30 * 86400, problems),
    pickupSimulationSeconds: readInteger(env, 'PICKUP_SIMULATION_SECONDS', 10, 0, 86400, problems),
    billingPeriod,
    reportSyncRows: readInteger(env, 'REPORT_SYNC_ROWS', 50_000, 0, 100_000_000, problems),
    stickerSyncLabels: readInteger(env, 'STICKER_SYNC_LABELS', 1000, 0, 1_000_000, problems),
    smtpUrl,
    mailFrom,
    shutdownGraceSeconds: readInteger(env, 'SHUTDOWN_GRACE_SECONDS', 10, 0, 3600, problems),
    sqliteSynchronous,
    corsOrigins: readCorsOrigins(env, problems),
    auditTrail: readSwitch(env, 'AUDIT_TRAIL', true, problems),
    rateLimitPerMinute: readInteger(env, 'RATE_LIMIT_PER_MINUTE', 1200, 0, 1_000_000, problems),
    loginRateLimitPerMinute: readInteger(env, 'LOGIN_RATE_LIMIT_PER_MINUTE', 10, 0, 1_000_000, problems),
    loginFailuresPerAddressPerMinute: readInteger(
      env,
      'LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE',
      10,
      0,
      1_000_000,
      problems,
    ),
    linkMailsPerAddressPerHour: readInteger(env, 'LINK_MAILS_PER_ADDRESS_PER_HOUR', 5, 0, 1_000_000, problems),
    signup,
    widgetDir: path.resolve(env.WIDGET_DIR?.trim() || path.join(PROJECT_ROOT, 'dist', 'widget')),
    appDir: path.resolve(env.APP_DIR?.trim() || path.join(PROJECT_ROOT, 'dist', 'app')),
    appMapTiles: readTileTemplate(env, problems),
    appMapAttribution: env.APP_MAP_ATTRIBUTION?.trim() || '© OpenStreetMap contributors',
    widgetRateLimitPerMinute: readInteger(env, 'WIDGET_RATE_LIMIT_PER_MINUTE', 300, 0, 1_000_000, problems),
    metricsToken,
    marketplaceOzonUrl: readHttpUrl(env, 'MARKETPLACE_OZON_URL', 'https://api-seller.ozon.ru', problems),
    marketplaceWildberriesUrl: readHttpUrl(
      env,
      'MARKETPLACE_WILDBERRIES_URL',
      'https://marketplace-api.wildberries.ru',
      problems,
    ),
    marketplaceYandexUrl: readHttpUrl(env, 'MARKETPLACE_YANDEX_URL', 'https://api.partner.market.yandex.ru', problems),
    marketplacePollSeconds: readInteger(env, 'MARKETPLACE_POLL_SECONDS', 300, 0, 86400, problems),
    marketplaceSandboxOrderSeconds: readInteger(env, 'MARKETPLACE_SANDBOX_ORDER_SECONDS', 60, 0, 86400, problems),
    dadataSuggestionsUrl: readHttpUrl(
      env,
      'DADATA_SUGGESTIONS_URL',
      'https://suggestions.dadata.ru/suggestions/api/4_1/rs',
      problems,
    ),
    dadataCleanerUrl: readHttpUrl(env, 'DADATA_CLEANER_URL', 'https://cleaner.dadata.ru/api/v1', problems),
    smsRuUrl: readHttpUrl(env, 'SMSRU_URL', 'https://sms.ru', problems),
    smscUrl: readHttpUrl(env, 'SMSC_URL', 'https://smsc.ru', problems),
    telegramApiUrl: readHttpUrl(env, 'TELEGRAM_API_URL', 'https://api.telegram.org', problems),
    carrierCdekUrl: readHttpUrl(env, 'CARRIER_CDEK_URL', 'https://api.cdek.ru/v2', problems),
    carrierCdekTestUrl: readHttpUrl(env, 'CARRIER_CDEK_TEST_URL', 'https://api.edu.cdek.ru/v2', problems),
    carrierBoxberryUrl: readHttpUrl(env, 'CARRIER_BOXBERRY_URL', 'https://api.boxberry.ru/json.php', problems),
    carrierRussianPostUrl: readHttpUrl(env, 'CARRIER_RUSSIAN_POST_URL', 'https://otpravka-api.pochta.ru', problems),
    carrierRussianPostTrackingUrl: readHttpUrl(
      env,
      'CARRIER_RUSSIAN_POST_TRACKING_URL',
      'https://tracking.russianpost.ru/rtm34',
      problems,
    ),
    carrierYandexDeliveryUrl: readHttpUrl(
      env,
      'CARRIER_YANDEX_DELIVERY_URL',
      'https://b2b-authproxy.taxi.yandex.net',
      problems,
    ),
    carrierYandexDeliveryTestUrl: readHttpUrl(
      env,
      'CARRIER_YANDEX_DELIVERY_TEST_URL',
      'https://b2b.taxi.tst.yandex.net',
      problems,
    ),
    carrierTimeoutMs: readInteger(env, 'CARRIER_TIMEOUT_MS', 10_000, 100, 120_000, problems),
    carrierPointsImportHours: readInteger(env, 'CARRIER_POINTS_IMPORT_HOURS', 24, 0, 24 * 30, problems),
    webhookRetryFirstSeconds: readInteger(env, 'WEBHOOK_RETRY_FIRST_SECONDS', 10, 1, 86400, problems),
    webhookRetryMaxSeconds: readInteger(env, 'WEBHOOK_RETRY_MAX_SECONDS', 3600, 1, 7 * 86400, problems),
    webhookDisableAfterHours: readDecimal(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 120, 0.0001, 24 * 365, problems),
    webhookAllowPrivateTargets: readSwitch(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false, problems),
    webhookTimeoutSeconds: readInteger(env, 'WEBHOOK_TIMEOUT_SECONDS', 10, 1, 120, problems),
    webhookSecretGraceHours: readInteger(env, 'WEBHOOK_SECRET_GRACE_HOURS', 24, 0, 24 * 30, problems),
    webhookConcurrency: readInteger(env, 'WEBHOOK_CONCURRENCY', 16, 1, 1000, problems),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
