/**
 * Reads of an order by what its parcel carries: the tracking record of GET /v2/tracking (by
 * id, cms id or track number, within the caller's account and shop) and the public tracking
 * page's lookups by track number (outside any account: the page decides what to show). Reads
 * only; apart from tracking.ts, which writes what the companies report. TrackingService builds
 * it from its own dependencies and answers for it.
 */
import type { Scope } from '../../platform/auth.js';
import { badRequest, notFound } from '../../platform/errors.js';
import type { ReferenceData } from '../companies/reference.js';
import { parseDoc, type OrderDoc } from './document.js';
import type { TrackingQuery, TrackingRecord } from './schemas.js';
import type { OrderStore } from './store.js';
import { trackingRecordOf } from './tracking-record.js';

/** An order found by its track number, outside any account scope: only public pages read it, and choose what to show. */
export interface PublicParcel {
  accountId: number;
  orderId: number;
  companyId: number;
  doc: OrderDoc;
}

export class ParcelReads {
  constructor(
    private readonly store: OrderStore,
    private readonly reference: ReferenceData,
  ) {}

  // ---------------------------------------------------------------- public reads (the tracking page)

  /** The orders of a company with this track number, for the public page (which checks its link's seal against each). */
  async parcelsWithTrackNumber(companyId: number, trackNumber: string): Promise<PublicParcel[]> {
    const records = await this.store.byTrackNumber(companyId, [trackNumber]);
    return records.map((record) => ({
      accountId: record.accountId,
      orderId: record.id,
      companyId: record.companyId,
      doc: parseDoc(record.doc),
    }));
  }

  /** The latest order with this track number of any company, for the public status-only answers. */
  async latestParcelWithTrackNumber(trackNumber: string): Promise<PublicParcel | undefined> {
    const record = await this.store.latestWithTrackNumber(trackNumber);
    return (
      record && {
        accountId: record.accountId,
        orderId: record.id,
        companyId: record.companyId,
        doc: parseDoc(record.doc),
      }
    );
  }

  // ---------------------------------------------------------------- the tracking record

  async record(scope: Scope, query: TrackingQuery): Promise<TrackingRecord> {
    const id = query.id ?? query.orderId;
    if (id === undefined && !query.trackNumber && !query.cmsId) {
      throw badRequest('Give id (or orderId), trackNumber or cmsId.', [
        { field: 'id', message: 'is required (or orderId, trackNumber, cmsId)' },
      ]);
    }
    const record = await this.store.find(
      scope.accountId,
      { id, cmsId: query.cmsId, trackNumber: query.trackNumber },
      scope.shopKeyShopId,
    );
    if (!record) throw notFound('Order');
    return trackingRecordOf(record.id, parseDoc(record.doc), record.companyId, this.reference);
  }
}
