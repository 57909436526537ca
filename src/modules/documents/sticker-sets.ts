/**
 * Sticker sets: the labels of Prepared orders as one file (ours as PDF, ZPL or PNG, the
 * companies' own labels beside them), written before the answer or, for a large set, by a job
 * under a name handed out at once; the sets formed today and their progress. Apart from
 * service.ts because only stickers ask the delivery companies for labels and run a job; the
 * service builds this class from its own dependencies and delegates to it, so its callers
 * (routes, the jobs worker) see the same methods.
 */
import { pipeline } from 'node:stream/promises';
import type { Scope } from '../../platform/auth.js';
import { addDays, startOfDay, todayIn } from '../../platform/clock.js';
import { FieldErrorCollector } from '../../platform/errors.js';
import { newFileName, type FileStore } from '../../platform/files.js';
import type { JobQueue, JobWorker } from '../../platform/jobs.js';
import {
  bytesEntry,
  labelCount,
  type FileEntry,
  OUTPUT_CONTENT_TYPE,
  stickerEntries,
  writeEntries,
  type StickerPlan,
} from '../../documents/sticker-files.js';
import type { PrinterDpi } from '../../documents/thermal.js';
import type { StickerFormat } from '../../documents/index.js';
import type { OrderDoc } from '../orders/document.js';
import type { OrderService } from '../orders/service.js';
import { statusRefusal, visibleOrders } from './document-orders.js';
import { stickerOrderOf } from './renderer-inputs.js';
import type { StickerSet, StickersBody } from './schemas.js';
import type { DocumentStore } from './store.js';

type Order = OrderDoc & { id: number };

const FORMATS: StickerFormat[] = [1, 2, 3];
/** How many companies' labels are asked at once, and how long a set waits for them all. */
const LABEL_CONCURRENCY = 4;
const LABEL_TIMEOUT_MS = 30_000;

/** Where a registered parcel's label comes from when its company prints its own (injected: the carriers' registry). */
export interface CompanyLabels {
  /** Whether the company is one that prints its own labels (a real company reached over HTTP). */
  printsOwn(accountId: number, companyId: number): Promise<boolean>;
  /** Its label of the parcel, or null. */
  label(accountId: number, companyId: number, trackNumber: string, signal: AbortSignal): Promise<Buffer | null>;
}
export const NO_COMPANY_LABELS: CompanyLabels = { printsOwn: async () => false, label: async () => null };
const FORMAT_SUFFIX: Record<StickerFormat, string> = { 1: 'a4', 2: '100x150', 3: '75x120' };

const PDF = 'application/pdf';

export const STICKERS_JOB = 'documents.stickers';
export const DEFAULT_DPI: PrinterDpi = 203;
/** How often a job writing a large set records its progress. */
const PROGRESS_EVERY_MS = 1000;

interface StickerJob {
  accountId: number;
  timeZone: string;
  setId: number;
  fileName: string;
  ids: number[];
  plan: StickerPlan;
  /** The date in the file's download name: the day it was asked for. */
  today: string;
}

/** A scope for work outside a request: the account's own view (the request's visibility was checked when it was made). */
function accountScope(accountId: number, timeZone: string): Scope {
  return { accountId, timeZone, kind: 'account', shopKeyShopId: null, employeeId: null };
}

/** How many files our labels make: a PDF per type, one ZPL stream, a PNG per label. */
function ourEntryCount(plan: StickerPlan, labels: number): number {
  if (plan.output === 'pdf') return plan.types.length;
  return plan.output === 'zpl' ? 1 : labels;
}

export class StickerSets {
  constructor(
    private readonly store: DocumentStore,
    private readonly orders: OrderService,
    private readonly files: FileStore,
    private readonly companyLabels: CompanyLabels,
    private readonly jobs: JobQueue | null,
    private readonly options: { syncLabels: number },
  ) {}

  /**
   * The companies' own labels of the orders that have one (a company's sorting centre scans
   * its own barcode), asked LABEL_CONCURRENCY at a time within LABEL_TIMEOUT_MS. A label the
   * company does not give (refused, failed, not a PDF, too slow) leaves the order to ours.
   */
  private async companyLabelsOf(scope: Scope, orders: Order[]): Promise<Map<number, Buffer>> {
    const labels = new Map<number, Buffer>();
    const signal = AbortSignal.timeout(LABEL_TIMEOUT_MS);
    const waiting = orders.filter((order) => order.trackNumber && typeof order.delivery.company.id === 'number');
    const next = async (): Promise<void> => {
      for (let order = waiting.shift(); order; order = waiting.shift()) {
        const label = await this.companyLabels
          .label(scope.accountId, order.delivery.company.id as number, order.trackNumber as string, signal)
          .catch(() => null);
        if (label) labels.set(order.id, label);
      }
    };
    await Promise.all(Array.from({ length: LABEL_CONCURRENCY }, next));
    return labels;
  }

  /**
   * Stickers of Prepared orders as one file: ours in the output asked (PDF as before, a ZPL
   * stream, PNG images) and the companies' own labels beside them (a ZIP when there is more
   * than one file). Up to `syncLabels` labels the file is written before the answer; a larger
   * set is written by a job under a name handed out now, whose URL answers 202 until it is
   * there and whose progress `GET /v2/orders/stickers` shows.
   */
  async formStickers(scope: Scope, body: StickersBody): Promise<{ file: string }> {
    const output = body.format ?? 'pdf';
    const problems = new FieldErrorCollector();
    if (output !== 'pdf' && body.type === 1)
      problems.add(
        'type',
        `is 1 (A4 sheets), which print as PDF only; format ${output} is for the thermal types 2 (100x150 mm) and 3 (75x120 mm)`,
      );
    if (output === 'pdf' && body.dpi !== undefined)
      problems.add('dpi', 'applies to format zpl or png only: a PDF prints at any resolution');
    problems.throwIfAny();
    const orders = await visibleOrders(this.orders, scope, body.ids, (order) =>
      statusRefusal(order, 'stickers are formed'),
    );
    const plan: StickerPlan = {
      output,
      types: body.type ? [body.type] : output === 'pdf' ? FORMATS : [2],
      dpi: body.dpi ?? (await this.printerDpiOf(scope, orders)),
    };
    const today = todayIn(scope.timeZone);
    const labels = labelCount(orders.map(stickerOrderOf));
    const shopIds = new Set(orders.map((order) => order.shopId));
    const set = {
      account_id: scope.accountId,
      shop_id: shopIds.size === 1 ? (orders[0].shopId ?? null) : null,
      format: body.type ?? null,
      output,
      dpi: output === 'pdf' ? null : plan.dpi,
      order_ids: JSON.stringify(orders.map((order) => order.id)),
      labels_total: labels,
      created_at: new Date().toISOString(),
    };
    if (labels <= this.options.syncLabels) {
      const written = await this.writeStickerFile(scope, orders, plan, today, null, () => undefined);
      await this.store.insertStickerSet({
        ...set,
        file_url: written.url,
        files: JSON.stringify(written.files),
        labels_done: labels,
        status: 'ready',
        file_name: null,
      });
      await this.orders.markDocuments(
        scope,
        orders.map((order) => order.id),
        { stickerFormed: true },
      );
      return { file: written.url };
    }
    // A large set: the kind of file is known now (one entry or a ZIP), so its name can be handed out.
    const single = ourEntryCount(plan, labels) === 1 && !(await this.anyPrintsOwnLabel(scope, orders));
    const fileName = newFileName(single ? plan.output : 'zip');
    const url = this.files.urlOf(fileName);
    const setId = await this.store.insertStickerSet({
      ...set,
      file_url: url,
      files: '[]',
      labels_done: 0,
      status: 'pending',
      file_name: fileName,
    });
    if (!this.jobs) throw new Error('DocumentService needs the job queue for large sticker sets');
    await this.jobs.enqueue<StickerJob>(
      scope.accountId,
      STICKERS_JOB,
      {
        accountId: scope.accountId,
        timeZone: scope.timeZone,
        setId,
        fileName,
        ids: orders.map((order) => order.id),
        plan,
        today,
      },
      { maxAttempts: 3 },
    );
    return { file: url };
  }

  registerJobs(worker: JobWorker): void {
    worker.register<StickerJob>(STICKERS_JOB, async (job) => {
      const { accountId, timeZone, setId, fileName, ids, plan, today } = job.payload;
      const scope = accountScope(accountId, timeZone);
      try {
        const found = await this.orders.getMany(scope, ids);
        const orders = ids.map((id) => found.get(id)).filter((order): order is Order => order !== undefined);
        let done = 0;
        let saved = Date.now();
        const written = await this.writeStickerFile(scope, orders, plan, today, fileName, () => {
          done += 1;
          // progress a second at a time: a write per label would cost more than the label
          if (Date.now() - saved >= PROGRESS_EVERY_MS) {
            saved = Date.now();
            void this.store.updateStickerSet(accountId, setId, { labels_done: done }).catch(() => undefined);
          }
        });
        await this.store.updateStickerSet(accountId, setId, {
          status: 'ready',
          labels_done: done,
          files: JSON.stringify(written.files),
        });
        await this.orders.markDocuments(
          scope,
          orders.map((order) => order.id),
          { stickerFormed: true },
        );
      } catch (error) {
        if (job.attempts >= job.maxAttempts) await this.store.updateStickerSet(accountId, setId, { status: 'failed' });
        throw error;
      }
    });
  }

  /** Whether a large set's file is still being written: its URL answers 202 meanwhile. */
  async isPendingFile(fileName: string): Promise<boolean> {
    return (await this.store.stickerSetOfFile(fileName))?.status === 'pending';
  }

  /** Whether any order's company prints its own label: then the file is a ZIP whatever the companies answer. */
  private async anyPrintsOwnLabel(scope: Scope, orders: Order[]): Promise<boolean> {
    const companies = new Set(
      orders
        .filter((order) => order.trackNumber && typeof order.delivery.company.id === 'number')
        .map((order) => order.delivery.company.id as number),
    );
    for (const companyId of companies) if (await this.companyLabels.printsOwn(scope.accountId, companyId)) return true;
    return false;
  }

  /** The resolution of the label printer of the orders' warehouse when they share one that has it set, else 203. */
  private async printerDpiOf(scope: Scope, orders: Order[]): Promise<PrinterDpi> {
    const warehouseIds = [...new Set(orders.map((order) => order.warehouseId))];
    if (warehouseIds.length !== 1 || warehouseIds[0] === null) return DEFAULT_DPI;
    const dpi = (await this.store.printerDpi(scope.accountId, [warehouseIds[0]])).get(warehouseIds[0]);
    return dpi === 300 ? 300 : DEFAULT_DPI;
  }

  /**
   * Writes the set's file (under `fileName` when one was handed out): ours for the orders whose
   * company gives no label of its own, the companies' labels beside them.
   */
  private async writeStickerFile(
    scope: Scope,
    orders: Order[],
    plan: StickerPlan,
    today: string,
    fileName: string | null,
    onLabel: () => void,
  ): Promise<{ url: string; files: Array<{ type: StickerFormat; file: string }> }> {
    const companyLabels = await this.companyLabelsOf(scope, orders);
    const ours = orders.filter((order) => !companyLabels.has(order.id)).map(stickerOrderOf);
    const theirs = orders
      .filter((order) => companyLabels.has(order.id))
      .map((order) => bytesEntry(`labels/${order.id}-${order.trackNumber}.pdf`, companyLabels.get(order.id) as Buffer));
    let entries = [...stickerEntries(ours, plan, onLabel), ...theirs];
    const single = entries.length === 1;
    // Our PDFs in a ZIP are also kept apart (the set lists each format's PDF): each is written
    // once, to its own file, and the ZIP copies them from the store.
    const files: Array<{ type: StickerFormat; file: string }> = [];
    if (plan.output === 'pdf' && ours.length > 0) {
      const pdfs = entries.slice(0, plan.types.length);
      if (!single) {
        const stored: FileEntry[] = [];
        for (const [index, type] of plan.types.entries()) {
          const file = await this.files.putStreamed(
            scope.accountId,
            { contentType: PDF, extension: 'pdf', downloadName: `stickers-${FORMAT_SUFFIX[type]}-${today}.pdf` },
            (out) => pdfs[index].write(out),
          );
          files.push({ type, file: file.url });
          stored.push(this.storedEntry(pdfs[index].name, file.name));
        }
        entries = [...stored, ...theirs];
      }
    }
    const ownFormat = single && theirs.length === 0;
    const extension = single ? (ownFormat ? plan.output : 'pdf') : 'zip';
    const contentType = single ? (ownFormat ? OUTPUT_CONTENT_TYPE[plan.output] : PDF) : 'application/zip';
    const downloadName = single
      ? ownFormat
        ? entries[0].name.replace(/(\.[a-z]+)$/, `-${today}$1`)
        : `label-${orders.find((order) => companyLabels.has(order.id))?.trackNumber}.pdf`
      : `stickers-${today}.zip`;
    const file = await this.files.putStreamed(
      scope.accountId,
      { contentType, extension, downloadName, ...(fileName ? { name: fileName } : {}) },
      (out) => writeEntries(out, entries),
    );
    if (plan.output === 'pdf' && ours.length > 0 && single) files.push({ type: plan.types[0], file: file.url });
    return { url: file.url, files };
  }

  /** A file kept in the store as an entry of a ZIP: copied from the store as it is read. */
  private storedEntry(name: string, storedName: string): FileEntry {
    return {
      name,
      write: async (out) => {
        const opened = await this.files.open(storedName);
        if (!opened) throw new Error(`stored file ${storedName} vanished while its ZIP was written`);
        await pipeline(opened.body, out);
      },
    };
  }

  /** Sets formed today in the account's time zone, oldest first. */
  async stickerSetsToday(scope: Scope, now: Date = new Date()): Promise<StickerSet[]> {
    const today = todayIn(scope.timeZone, now);
    const rows = await this.store.stickerSetsBetween(
      scope.accountId,
      startOfDay(today, scope.timeZone),
      startOfDay(addDays(today, 1), scope.timeZone),
      scope.shopKeyShopId,
    );
    return rows.map((row) => ({
      id: row.id,
      date: row.created_at,
      deliveryCompanySticker: row.file_url,
      postSticker: null,
      stickers: JSON.parse(row.files) as Array<{ type: number; file: string }>,
      orderIds: JSON.parse(row.order_ids) as number[],
      format: row.output as StickerSet['format'],
      dpi: row.dpi === null ? null : Number(row.dpi),
      status: row.status as StickerSet['status'],
      progress: { done: Number(row.labels_done), total: Number(row.labels_total) },
    }));
  }
}
