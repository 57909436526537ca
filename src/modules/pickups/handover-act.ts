/**
 * A pickup's handover act: the PDF the courier signs, listing the orders the pickup covers
 * (remembered, and formed again only when they change), and the same act as barcode labels for
 * the warehouse's thermal printer. Given the orders and the warehouse already read; apart from
 * service.ts because it is rendering and file storage, not a rule of pickups.
 */
import type { FileStore } from '../../platform/files.js';
import { renderPickupAct, type PickupActInput } from '../../documents/index.js';
import { pickupActLabels, thermalFile } from '../../documents/thermal-labels.js';
import type { PrinterDpi } from '../../documents/thermal.js';
import type { ReferenceData } from '../companies/reference.js';
import { actOrderOf, senderOf } from '../documents/service.js';
import type { Warehouse } from '../warehouses/schemas.js';
import type { OrderView } from './coverage.js';
import type { PickupRecord, PickupStore } from './store.js';

export class HandoverActs {
  constructor(
    private readonly store: PickupStore,
    private readonly files: FileStore,
    private readonly reference: ReferenceData,
  ) {}

  /** The handover act of the orders the pickup covers now: formed again whenever they changed since the last one. */
  async pdfOf(record: PickupRecord, orders: OrderView[], warehouse: Warehouse): Promise<string | null> {
    if (orders.length === 0) return null;
    const ids = orders.map((order) => order.id);
    if (
      record.file &&
      record.actOrders &&
      record.actOrders.length === ids.length &&
      record.actOrders.every((id, index) => id === ids[index])
    )
      return record.file;
    const pdf = await renderPickupAct(this.inputOf(record, orders, warehouse));
    const file = await this.files.put(record.accountId, {
      bytes: pdf,
      contentType: 'application/pdf',
      extension: 'pdf',
      downloadName: `pickup-${record.id}-${record.date}.pdf`,
    });
    await this.store.setAct(record.accountId, record.id, file.url, ids);
    return file.url;
  }

  /** The act's barcodes for the warehouse's thermal printer: the orders given (at least one), as the PDF act lists them. */
  async labels(
    record: PickupRecord,
    orders: OrderView[],
    warehouse: Warehouse,
    body: { format?: 'zpl' | 'png'; dpi?: PrinterDpi },
  ): Promise<{ file: string }> {
    const pages = pickupActLabels(this.inputOf(record, orders, warehouse), body.dpi ?? 203);
    const file = await thermalFile(
      pages.map((label, index) => ({ name: `act-${record.id}-${index + 1}`, label, copies: 1 })),
      body.format ?? 'zpl',
    );
    const stored = await this.files.put(record.accountId, {
      bytes: file.bytes,
      contentType: file.contentType,
      extension: file.extension,
      downloadName: `pickup-${record.id}-${record.date}.${file.extension}`,
    });
    return { file: stored.url };
  }

  private inputOf(record: PickupRecord, orders: OrderView[], warehouse: Warehouse): PickupActInput {
    return {
      number: record.id,
      date: record.date,
      type: record.type,
      pickupNumber: record.number,
      time: record.timeFrom && record.timeTo ? { from: record.timeFrom, to: record.timeTo } : null,
      company: { name: this.reference.registry.get(record.companyId)?.company.name ?? `Company ${record.companyId}` },
      sender: senderOf(orders[0]),
      warehouse: {
        name: warehouse.name,
        address: {
          city: warehouse.address.city.name,
          region: warehouse.address.city.region,
          street: warehouse.address.street,
          house: warehouse.address.house,
          bulk: warehouse.address.bulk,
          flat: warehouse.address.flat,
        },
      },
      orders: orders.map((order) => actOrderOf(order)),
    };
  }
}
