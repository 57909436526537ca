/**
 * An account's own contracts with real delivery companies: listing them (masked), connecting
 * one (parameters checked with the company, then sealed), disconnecting; and, for the
 * calculator, orders and pickups, the companies an account ships with: the built-in
 * (simulated) ones, plus its contracted real ones, each with a driver of its own credentials.
 */
import { requireAccountWide, type Scope } from '../../platform/auth.js';
import { declareChange } from '../../platform/audit.js';
import type { SecretBox } from '../../platform/crypto.js';
import { AppError, badRequest, notFound, unprocessable } from '../../platform/errors.js';
import { openCredentials, readCredentials, sealCredentials } from '../../platform/sealed-credentials.js';
import type { ContractCompanies, ContractCompany } from '../../carriers/contracts.js';
import { CarrierAuthError } from '../../carriers/remote-call.js';
import type { CarrierRegistry, RegisteredCompany } from '../../carriers/registry.js';
import { CarrierError, type ContractDriver } from '../../carriers/types.js';
import { describeCheck } from './connection-check.js';
import type { CarrierIntegration, CarrierIntegrationBody, ConnectionCheck, ConnectionCheckBody } from './schemas.js';
import type { Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import type { CarrierIntegrationStore } from './store.js';

const CHECK_TIMEOUT_MS = 20_000;
/** How long a process trusts what it read of an account's contracts (others' changes show within it). */
const CONTRACTS_CACHE_MS = 5_000;

/**
 * Work a contract still has with its company once disconnected (deleting its status webhook),
 * run later by a job: the contract's sealed credentials are kept until it ran.
 */
export interface DisconnectFollowUp {
  /** Whether a disconnected contract with this company has such work. */
  needed(accountId: number, companyId: number): boolean;
  /** Queues it for the retired contract, in the transaction that disconnects it. */
  queue(retired: { id: number; accountId: number; companyId: number }, trx: Transaction<Tables>): Promise<void>;
}

interface AccountContracts {
  readAt: number;
  /** The account's contracted companies with their drivers (token caches live in them). */
  entries: Map<number, RegisteredCompany>;
  testMode: Map<number, boolean>;
  drivers: Map<number, ContractDriver>;
}

export class CarrierIntegrationService {
  private readonly accounts = new Map<number, AccountContracts>();
  private readonly connectedListeners: Array<
    (companyId: number, accountId: number, trx: Transaction<Tables>) => Promise<void>
  > = [];
  private readonly disconnectedListeners: DisconnectFollowUp[] = [];

  constructor(
    private readonly store: CarrierIntegrationStore,
    private readonly companies: ContractCompanies,
    private readonly registry: CarrierRegistry,
    private readonly secretBox: SecretBox,
    private readonly publicUrl: string,
  ) {}

  private company(companyId: number): ContractCompany {
    const company = this.companies.get(companyId);
    if (!company) throw notFound('Delivery company with its own contracts', companyId);
    return company;
  }

  async list(scope: Scope): Promise<CarrierIntegration[]> {
    const connected = new Map((await this.store.list(scope.accountId)).map((record) => [record.companyId, record]));
    return this.companies.all().map((company) => {
      const record = connected.get(company.file.id);
      return {
        companyId: company.file.id,
        code: company.file.code,
        name: company.file.name,
        logo: `${this.publicUrl}/logos/${company.file.code}.svg`,
        deliveryTypes: company.file.deliveryTypes,
        connected: record !== undefined,
        testMode: record?.testMode ?? false,
        hasTestEnvironment: company.hasTestEnvironment,
        connectedAt: record?.connectedAt ?? null,
        integrationParams: company.params.map((param) => ({
          key: param.key,
          name: param.name,
          value: record?.masked[param.key] ?? '',
        })),
      };
    });
  }

  /**
   * Checks the parameters with the company and stores them sealed. Nothing is written when
   * they are malformed (400), the company refuses them (422) or does not answer (503).
   */
  async connect(scope: Scope, companyId: number, body: CarrierIntegrationBody): Promise<void> {
    requireAccountWide(scope, 'connect a delivery company contract');
    const company = this.company(companyId);
    const testMode = body.testMode ?? false;
    if (testMode && !company.hasTestEnvironment) {
      throw badRequest(
        `${company.file.name} has no test environment; without a contract the simulated companies are the sandbox.`,
        [{ field: 'testMode', message: `${company.file.name} has no test environment` }],
      );
    }
    const credentials = readCredentials(
      body.params ?? {},
      company.params.map((param) => param.key),
      company.file.name,
      'params.',
    );
    const driver = this.companies.driver(companyId, credentials, testMode);
    try {
      await driver.checkCredentials(AbortSignal.timeout(CHECK_TIMEOUT_MS));
    } catch (error) {
      if (error instanceof CarrierAuthError)
        throw unprocessable('carrier_auth_failed', `${company.file.name} refused these credentials: ${error.message}`);
      if (error instanceof CarrierError && !error.transient)
        throw unprocessable('carrier_auth_failed', `${company.file.name} refused: ${error.message}`);
      throw new AppError(
        503,
        'carrier_unavailable',
        `${company.file.name} could not check the credentials now; try again later. ${(error as Error).message}`,
      );
    }
    const { sealed, masked } = sealCredentials(this.secretBox, credentials);
    // the credentials never: which fields were given, and the mode
    const before = (await this.store.list(scope.accountId)).find((contract) => contract.companyId === companyId);
    declareChange({
      type: 'carrier_integrations',
      ids: [companyId],
      before: before ? { companyId, testMode: before.testMode, credentials: 'set' } : null,
      after: { companyId, testMode, credentials: 'set', credentialFields: Object.keys(credentials) },
    });
    await this.store.save(scope.accountId, companyId, { sealedCredentials: sealed, masked, testMode }, async (trx) => {
      for (const listener of this.connectedListeners) await listener(companyId, scope.accountId, trx);
    });
    this.accounts.delete(scope.accountId);
  }

  /**
   * Asks the company's authentication through its driver and says what it answered: the
   * credentials given (nothing stored), or the account's stored contract (404 without one).
   * A refusal or a company down is an answer (200), not an error of this call.
   */
  async check(scope: Scope, companyId: number, body: ConnectionCheckBody): Promise<ConnectionCheck> {
    requireAccountWide(scope, 'check a delivery company contract');
    const company = this.company(companyId);
    let credentials: Record<string, string>;
    let testMode: boolean;
    if (body.params) {
      testMode = body.testMode ?? false;
      if (testMode && !company.hasTestEnvironment)
        throw badRequest(`${company.file.name} has no test environment.`, [
          { field: 'testMode', message: `${company.file.name} has no test environment` },
        ]);
      credentials = readCredentials(
        body.params,
        company.params.map((param) => param.key),
        company.file.name,
        'params.',
      );
    } else {
      const record = (await this.store.list(scope.accountId)).find((one) => one.companyId === companyId);
      if (!record) throw notFound(`Contract with ${company.file.name}`, companyId);
      credentials = openCredentials(this.secretBox, record.sealedCredentials);
      testMode = record.testMode;
    }
    // a driver of its own: the account's live driver (and its cached token) is left as it is
    const driver = this.companies.driver(companyId, credentials, testMode);
    const started = performance.now();
    let failure: unknown = null;
    try {
      await driver.checkCredentials(AbortSignal.timeout(CHECK_TIMEOUT_MS));
    } catch (error) {
      failure = error;
    }
    return describeCheck(
      { id: companyId, name: company.file.name },
      failure,
      Math.round(performance.now() - started),
      this.companies.timeoutMs,
    );
  }

  /** Work to do once a contract is connected (its directory imported, its webhook subscribed), queued in the transaction that stores it. */
  onConnected(listener: (companyId: number, accountId: number, trx: Transaction<Tables>) => Promise<void>): void {
    this.connectedListeners.push(listener);
  }

  /** Work a disconnected contract still has with its company (the webhooks' clean-up): an event, heard like onConnected. */
  onDisconnected(followUp: DisconnectFollowUp): void {
    this.disconnectedListeners.push(followUp);
  }

  /**
   * Deletes the contract; where it still has work with the company (a webhook to delete),
   * its sealed credentials are kept for the job that does it, never asked of the company
   * here: a company that is down does not fail the disconnect.
   */
  async disconnect(scope: Scope, companyId: number): Promise<void> {
    requireAccountWide(scope, 'disconnect a delivery company contract');
    const company = this.company(companyId);
    const accountId = scope.accountId;
    const followUp = this.disconnectedListeners.find((listener) => listener.needed(accountId, companyId)) ?? null;
    const retain = followUp
      ? (retiredId: number, trx: Transaction<Tables>) => followUp.queue({ id: retiredId, accountId, companyId }, trx)
      : null;
    const before = (await this.store.list(accountId)).find((contract) => contract.companyId === companyId);
    if (before)
      declareChange({
        type: 'carrier_integrations',
        ids: [companyId],
        before: { companyId, testMode: before.testMode, credentials: 'set' },
        after: null,
      });
    if (!(await this.store.remove(accountId, companyId, retain)))
      throw notFound(`Contract with ${company.file.name}`, companyId);
    this.accounts.delete(accountId);
  }

  /** The driver of a disconnected contract kept for its follow-up, or undefined once it ran. */
  async retiredDriver(
    accountId: number,
    retiredId: number,
  ): Promise<{ companyId: number; driver: ContractDriver } | undefined> {
    const retired = await this.store.retired(accountId, retiredId);
    if (!retired || !this.companies.get(retired.companyId)) return undefined;
    return {
      companyId: retired.companyId,
      driver: this.companies.driver(
        retired.companyId,
        openCredentials(this.secretBox, retired.sealedCredentials),
        retired.testMode,
      ),
    };
  }

  /** Erases a disconnected contract's credentials (its follow-up ran, or gave up). */
  forgetRetired(accountId: number, retiredId: number): Promise<void> {
    return this.store.forgetRetired(accountId, retiredId);
  }

  /** The companies the account has a contract with (test or live), read from the database. */
  async connectedCompanies(accountId: number): Promise<number[]> {
    return (await this.store.list(accountId)).map((record) => record.companyId);
  }

  /** Whether the account has a contract with the company now (read from the database, not this process's cache). */
  async isConnected(accountId: number, companyId: number): Promise<boolean> {
    return (await this.store.list(accountId)).some((record) => record.companyId === companyId);
  }

  /** The names of the companies the account has a live contract with (read from the database): the sandbox refuses such accounts. */
  async liveContractNames(accountId: number): Promise<string[]> {
    return (await this.store.list(accountId))
      .filter((record) => !record.testMode)
      .map((record) => this.companies.get(record.companyId)?.file.name ?? `company ${record.companyId}`);
  }

  // --- for the calculator, orders, tracking and pickups ---

  private async contracts(accountId: number): Promise<AccountContracts> {
    const known = this.accounts.get(accountId);
    if (known && Date.now() - known.readAt < CONTRACTS_CACHE_MS) return known;
    const records = await this.store.list(accountId);
    const entries = new Map<number, RegisteredCompany>();
    const testMode = new Map<number, boolean>();
    const drivers = new Map<number, ContractDriver>();
    for (const record of records) {
      const company = this.companies.get(record.companyId);
      if (!company) continue;
      // the same contract keeps its driver (and its OAuth token) across re-reads
      const previous = known?.entries.get(record.companyId);
      const same =
        previous &&
        known?.testMode.get(record.companyId) === record.testMode &&
        (previous as RegisteredCompany & { sealed?: string }).sealed === record.sealedCredentials;
      const driver = same
        ? (known.drivers.get(record.companyId) ??
          this.companies.driver(
            record.companyId,
            openCredentials(this.secretBox, record.sealedCredentials),
            record.testMode,
          ))
        : this.companies.driver(
            record.companyId,
            openCredentials(this.secretBox, record.sealedCredentials),
            record.testMode,
          );
      const entry = same
        ? previous
        : Object.assign(
            { company: { ...company.file, logo: `${this.publicUrl}/logos/${company.file.code}.svg` }, driver },
            { sealed: record.sealedCredentials },
          );
      entries.set(record.companyId, entry);
      drivers.set(record.companyId, driver);
      testMode.set(record.companyId, record.testMode);
    }
    const read = { readAt: Date.now(), entries, testMode, drivers };
    this.accounts.set(accountId, read);
    return read;
  }

  /** The companies an account ships with: the built-in ones and its contracted real ones. */
  async companiesOf(accountId: number): Promise<RegisteredCompany[]> {
    const contracts = await this.contracts(accountId);
    return contracts.entries.size === 0 ? this.registry.all() : [...this.registry.all(), ...contracts.entries.values()];
  }

  /** One company as the account ships with it (a real company only under the account's contract). */
  async companyOf(accountId: number, companyId: number): Promise<RegisteredCompany | undefined> {
    if (!this.companies.get(companyId)) return this.registry.get(companyId);
    return (await this.contracts(accountId)).entries.get(companyId);
  }

  /** Whether the account's contract with a company is its test environment's. */
  async isTestMode(accountId: number, companyId: number): Promise<boolean> {
    return (await this.contracts(accountId)).testMode.get(companyId) ?? false;
  }

  /** The driver of an account's contract with a real company (what only real companies do: labels, directories). */
  async contractDriver(accountId: number, companyId: number): Promise<ContractDriver | undefined> {
    return (await this.contracts(accountId)).drivers.get(companyId);
  }

  /** Contracts with a company, live ones first. */
  contractsWith(companyId: number): Promise<Array<{ accountId: number; testMode: boolean }>> {
    return this.store.contractsWith(companyId);
  }

  /** Accounts with a contract with each real company (the tracking poll). */
  async contractedAccounts(companyId: number): Promise<number[]> {
    return this.store.accountsOf(companyId);
  }
}
