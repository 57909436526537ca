/**
 * The tracking record customers read (GET /v2/orders/tracking): the order's status history,
 * its company and point as the reference data knows them now. Pure: the read is in parcel-reads.ts.
 */
import type { ReferenceData } from '../companies/reference.js';
import type { OrderDoc } from './document.js';
import type { TrackingRecord } from './schemas.js';
import { isOwnMethodOrder } from './service.js';

export function trackingRecordOf(
  id: number,
  doc: OrderDoc,
  companyId: number,
  reference: ReferenceData,
): TrackingRecord {
  const company = reference.registry.get(companyId)?.company;
  const point = doc.delivery.point;
  // a shop's own point is none of the reference data's
  const known = point && !isOwnMethodOrder(doc) ? reference.registry.point(point.id) : undefined;
  const address =
    doc.delivery.type === 1
      ? null
      : [
          doc.deliveryAddress.zipCode,
          doc.deliveryAddress.city.name,
          doc.deliveryAddress.street,
          doc.deliveryAddress.house,
          doc.deliveryAddress.flat ? `кв. ${doc.deliveryAddress.flat}` : null,
        ]
          .filter(Boolean)
          .join(', ') || null;
  const name = company?.name ?? doc.delivery.company.name ?? '';
  return {
    id,
    cmsId: doc.cmsId,
    brand: doc.brand,
    statusHistory: doc.statusHistory,
    trackNumber: doc.trackNumber,
    trackingUrl: doc.trackingUrl,
    isPost: company?.isPost === true || point?.isPost === true,
    withCod: doc.priceCod > 0,
    delivery: {
      type: doc.delivery.type,
      totalPrice: doc.delivery.totalPrice,
      company: name,
      holdDays: point ? String(point.holdDays) : null,
      logo: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="4" y="26" font-size="16">${name.replace(/[<&>]/g, '')}</text></svg>`,
      ).toString('base64'),
      date: doc.delivery.date,
    },
    address,
    cityPhoto: null,
    ...(point
      ? {
          point: {
            id: point.id,
            name: point.name,
            longitude: point.longitude,
            latitude: point.latitude,
            type: point.type,
            description: point.description,
            photos: point.photos ?? [],
            address: point.address,
            schedule: point.schedule,
            district: known?.district ?? null,
            metro: known?.metro?.slice(0, 3) ?? [],
            cashPaymentAvailable: known?.cashPaymentAvailable ?? doc.delivery.cashPaymentAvailable,
            cardPaymentAvailable: known?.cardPaymentAvailable ?? doc.delivery.cardPaymentAvailable,
            fittingAvailable: known?.fittingAvailable ?? doc.delivery.fittingAvailable,
            checkupAvailable: known?.checkupAvailable ?? doc.delivery.checkupAvailable,
            partialBuyoutAvailable: known?.partialBuyoutAvailable ?? doc.delivery.partialBuyoutAvailable,
            isDropOff: false,
          },
        }
      : {}),
  };
}
