/**
 * The real companies' pickup-point directories, imported on a schedule into our points (the
 * calculator's type-1 options, GET /v2/lists/points). A directory is the company's public
 * one, the same whoever asks: its points are shared by every account, read through one
 * contract (a live one before a test one). One import per company waits at a time.
 */
import type { Transaction } from 'kysely';
import type { Tables } from '../../platform/db/tables.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import type { ReferenceData } from '../companies/reference.js';
import type { ContractCompanies } from '../../carriers/contracts.js';
import type { CarrierIntegrationService } from './service.js';

export const POINTS_SCHEDULE_JOB = 'carriers.points-schedule';
export const POINTS_IMPORT_JOB = 'carriers.points-import';
/** A directory of several thousand points read, mapped and written. */
const IMPORT_TIMEOUT_MS = 5 * 60_000;

export interface PointImportOutcome {
  /** The account whose contract read the directory; null when no account has a contract. */
  accountId: number | null;
  visible: number;
  added: number;
  hidden: number;
}

export class CarrierPointImport {
  constructor(
    private readonly integrations: CarrierIntegrationService,
    private readonly companies: ContractCompanies,
    private readonly reference: ReferenceData,
    private readonly jobs: JobQueue,
    /** CARRIER_POINTS_IMPORT_HOURS: 0 turns the schedule off (connecting still imports once). */
    private readonly everyHours: number,
  ) {}

  private withDirectories(): number[] {
    return this.companies
      .all()
      .filter((company) => company.hasPointDirectory)
      .map((company) => company.file.id);
  }

  registerJobs(worker: JobWorker): void {
    worker.register<{ companyId: number }>(POINTS_IMPORT_JOB, async (job, signal) => {
      await this.importPoints(job.payload.companyId, signal);
    });
    worker.register(POINTS_SCHEDULE_JOB, async () => {
      try {
        for (const companyId of this.withDirectories()) {
          if ((await this.integrations.contractsWith(companyId)).length > 0) await this.queueImport(companyId);
        }
      } finally {
        await this.scheduleRounds(new Date(Date.now() + this.everyHours * 3_600_000));
      }
    });
  }

  /** Makes sure a round is due (each round schedules the next; one per period across processes). */
  async scheduleRounds(at = new Date()): Promise<void> {
    if (this.everyHours <= 0) return;
    const slot = Math.floor(at.getTime() / (this.everyHours * 3_600_000));
    await this.jobs.enqueue(
      null,
      POINTS_SCHEDULE_JOB,
      {},
      { runAt: at, uniqueKey: `carrier-points-schedule:${slot}`, maxAttempts: 1 },
    );
  }

  /** Queues an import of a company's directory (a no-op while one waits); connecting a contract calls it. */
  async queueImport(companyId: number, db?: Transaction<Tables>): Promise<void> {
    if (!this.withDirectories().includes(companyId)) return;
    await this.jobs.enqueue(
      null,
      POINTS_IMPORT_JOB,
      { companyId },
      { uniqueKey: `carrier-points-import:${companyId}`, maxAttempts: 4 },
      db,
    );
  }

  /**
   * Reads the directory through one contract and makes our points of the company what it
   * holds. An empty directory changes nothing: it is far likelier a bad answer than a
   * company that closed every point.
   */
  async importPoints(
    companyId: number,
    signal: AbortSignal = AbortSignal.timeout(IMPORT_TIMEOUT_MS),
  ): Promise<PointImportOutcome> {
    const company = this.companies.get(companyId);
    if (!company) return { accountId: null, visible: 0, added: 0, hidden: 0 };
    for (const contract of await this.integrations.contractsWith(companyId)) {
      const driver = await this.integrations.contractDriver(contract.accountId, companyId);
      if (!driver) continue;
      const directory = await driver.points(signal);
      if (directory.length === 0) return { accountId: contract.accountId, visible: 0, added: 0, hidden: 0 };
      return {
        accountId: contract.accountId,
        ...(await this.reference.replaceImportedPoints(companyId, company.file, directory)),
      };
    }
    return { accountId: null, visible: 0, added: 0, hidden: 0 };
  }
}
