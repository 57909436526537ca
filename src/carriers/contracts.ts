/**
 * The real delivery companies an account may connect its own contract with: what each is
 * (a company as the calculator presents it), which parameters its contract needs, and how
 * its driver is made from them. One `RemoteCompany` (breaker, rate limit) per company and
 * process, shared by every account's driver of that company.
 */
import { BoxberryDriver } from './boxberry/driver.js';
import { CdekDriver } from './cdek/driver.js';
import {
  DEFAULT_REMOTE_POLICY,
  RemoteCompany,
  type RemoteCallObserver,
  type RemoteLogger,
  type RemotePolicy,
} from './remote-call.js';
import { RussianPostDriver } from './russian-post/driver.js';
import type { CompanyFile } from './tariff/rate-card.js';
import type { ContractDriver } from './types.js';
import { YandexDeliveryDriver } from './yandex-delivery/driver.js';

export interface IntegrationParam {
  key: string;
  name: { ru: string; en: string };
}

export interface ContractUrls {
  cdek: string;
  cdekTest: string;
  boxberry: string;
  russianPost: string;
  russianPostTracking: string;
  yandexDelivery: string;
  yandexDeliveryTest: string;
}

export interface ContractCompany {
  file: CompanyFile;
  params: IntegrationParam[];
  /** Whether the company has a test environment `testMode` switches to. */
  hasTestEnvironment: boolean;
  /** Whether the company publishes a pickup-point directory we import (modules/carrier-integrations/points-import). */
  hasPointDirectory: boolean;
  create(
    remote: RemoteCompany,
    credentials: Record<string, string>,
    testMode: boolean,
    urls: ContractUrls,
  ): ContractDriver;
}

/** Ids from 1001: clear of the built-in companies (1-9) and of operators' own (carriers.json, usually 100s). */
export const CDEK_ID = 1001;
export const BOXBERRY_ID = 1002;
export const RUSSIAN_POST_ID = 1003;
export const YANDEX_DELIVERY_ID = 1004;

const commonFile = {
  driver: 'contract' as const,
  coverage: { minPopulation: 0 },
  cashPaymentAvailable: true,
  cardPaymentAvailable: true,
};

export const CONTRACT_COMPANIES: readonly ContractCompany[] = [
  {
    file: {
      ...commonFile,
      id: CDEK_ID,
      code: 'cdek',
      name: 'СДЭК',
      deliveryTypes: [1, 2],
      holdDays: 7,
      pickup: { dropOff: true, direct: true, pricePickup: 0, pickupPointRequired: false, commentAvailable: true },
    },
    params: [
      { key: 'clientId', name: { ru: 'Идентификатор клиента (Account)', en: 'Client id (Account)' } },
      { key: 'clientSecret', name: { ru: 'Секретный ключ (Secure password)', en: 'Client secret (Secure password)' } },
    ],
    hasTestEnvironment: true,
    hasPointDirectory: true,
    create: (remote, credentials, testMode, urls) =>
      new CdekDriver(
        remote,
        { clientId: credentials.clientId, clientSecret: credentials.clientSecret },
        { baseUrl: testMode ? urls.cdekTest : urls.cdek },
      ),
  },
  {
    file: {
      ...commonFile,
      id: BOXBERRY_ID,
      code: 'boxberry',
      name: 'Boxberry',
      deliveryTypes: [1, 2],
      holdDays: 7,
      pickup: { dropOff: true, direct: false, pricePickup: 0, pickupPointRequired: false },
    },
    params: [{ key: 'token', name: { ru: 'API-токен', en: 'API token' } }],
    hasTestEnvironment: false,
    hasPointDirectory: true,
    create: (remote, credentials, _testMode, urls) => new BoxberryDriver(remote, credentials.token, urls.boxberry),
  },
  {
    file: {
      ...commonFile,
      id: RUSSIAN_POST_ID,
      code: 'russian-post',
      name: 'Почта России',
      isPost: true,
      deliveryTypes: [3],
      holdDays: 30,
      pickup: { dropOff: true, direct: false, pricePickup: 0, pickupPointRequired: false },
    },
    params: [
      { key: 'accessToken', name: { ru: 'Токен авторизации приложения', en: 'Application access token' } },
      { key: 'login', name: { ru: 'Логин личного кабинета', en: 'Account login' } },
      { key: 'password', name: { ru: 'Пароль личного кабинета', en: 'Account password' } },
      { key: 'indexFrom', name: { ru: 'Индекс места приёма', en: 'Post office index of hand-in' } },
      { key: 'trackingLogin', name: { ru: 'Логин сервиса отслеживания', en: 'Tracking service login' } },
      { key: 'trackingPassword', name: { ru: 'Пароль сервиса отслеживания', en: 'Tracking service password' } },
    ],
    hasTestEnvironment: false,
    hasPointDirectory: true,
    create: (remote, credentials, _testMode, urls) =>
      new RussianPostDriver(
        remote,
        {
          accessToken: credentials.accessToken,
          login: credentials.login,
          password: credentials.password,
          indexFrom: credentials.indexFrom,
          trackingLogin: credentials.trackingLogin,
          trackingPassword: credentials.trackingPassword,
        },
        { baseUrl: urls.russianPost, trackingUrl: urls.russianPostTracking },
      ),
  },
  {
    // Yandex takes no cash at delivery (card at receipt only); parcels are handed in at the contract's station
    file: {
      ...commonFile,
      id: YANDEX_DELIVERY_ID,
      code: 'yandex-delivery',
      name: 'Яндекс Доставка',
      deliveryTypes: [1, 2],
      holdDays: 7,
      cashPaymentAvailable: false,
      pickup: { dropOff: true, direct: false, pricePickup: 0, pickupPointRequired: false },
    },
    params: [
      {
        key: 'token',
        name: { ru: 'OAuth-токен (Интеграция → Получить токен)', en: 'OAuth token (Integration → Get token)' },
      },
      {
        key: 'platformStationId',
        name: { ru: 'ID склада отгрузки (platform_station_id)', en: 'Shipping station id (platform_station_id)' },
      },
    ],
    hasTestEnvironment: true,
    hasPointDirectory: true,
    create: (remote, credentials, testMode, urls) =>
      new YandexDeliveryDriver(
        remote,
        { token: credentials.token, stationId: credentials.platformStationId },
        testMode ? urls.yandexDeliveryTest : urls.yandexDelivery,
      ),
  },
];

/** The real companies of this process with their shared resilience state. */
export class ContractCompanies {
  private readonly remotes = new Map<number, RemoteCompany>();

  constructor(
    readonly urls: ContractUrls,
    private readonly policy: RemotePolicy = DEFAULT_REMOTE_POLICY,
    private readonly observer: RemoteCallObserver | null = null,
    private logger: RemoteLogger | null = null,
  ) {}

  /** Where remote calls are logged (the app's logger, known only once the app is built). */
  useLogger(logger: RemoteLogger): void {
    this.logger = logger;
  }

  private readonly forwardingLogger: RemoteLogger = {
    info: (fields, message) => this.logger?.info(fields, message),
    warn: (fields, message) => this.logger?.warn(fields, message),
  };

  /** How long one call to a company may take (CARRIER_TIMEOUT_MS). */
  get timeoutMs(): number {
    return this.policy.timeoutMs;
  }

  get(companyId: number): ContractCompany | undefined {
    return CONTRACT_COMPANIES.find((company) => company.file.id === companyId);
  }

  all(): readonly ContractCompany[] {
    return CONTRACT_COMPANIES;
  }

  remote(companyId: number): RemoteCompany {
    let remote = this.remotes.get(companyId);
    if (!remote) {
      const company = this.get(companyId);
      if (!company) throw new Error(`No real company ${companyId}`);
      remote = new RemoteCompany(companyId, company.file.code, this.policy, this.observer, this.forwardingLogger);
      this.remotes.set(companyId, remote);
    }
    return remote;
  }

  driver(companyId: number, credentials: Record<string, string>, testMode: boolean): ContractDriver {
    const company = this.get(companyId);
    if (!company) throw new Error(`No real company ${companyId}`);
    return company.create(this.remote(companyId), credentials, testMode, this.urls);
  }

  shutdown(): void {
    for (const remote of this.remotes.values()) remote.shutdown();
  }
}
