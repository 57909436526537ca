/**
 * The ways back a buyer may choose: for each way and company the shop allows, the company's
 * points nearest where the buyer received the order, and the return parcel's price (composed and
 * priced like any order: orders' return-parcels.ts), with who pays it by the shop's rules.
 */
import type { Scope } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { ReferenceData } from '../companies/reference.js';
import type { OrderDoc } from '../orders/document.js';
import type { OrderService, ReturnParcelSpec } from '../orders/service.js';
import { payerOf, type ReturnReason, type ReturnSettings, type ReturnWay } from './rules.js';

type Delivered = OrderDoc & { id: number };

/** One way back the buyer may choose, with its price. */
export interface ReturnOption {
  way: ReturnWay;
  companyId: number;
  companyName: string;
  /** Roubles; null: the company cannot carry this parcel from there. */
  cost: number | null;
  payer: 'shop' | 'buyer';
  /** The company's points near the buyer (point and post), nearest first. */
  points: Array<{ id: number; name: string; address: string }>;
}

const POINTS_OFFERED = 20;

/** The return parcel's make-up: the lines, the company, and the pickup the way means (a point: 1; the courier: 4). */
export function parcelSpec(
  lines: Array<{ line: number; count: number }>,
  choice: { way: ReturnWay; companyId: number; pointId: number | null },
  returnOf: ReturnParcelSpec['returnOf'],
  code: string | null,
): ReturnParcelSpec {
  return {
    lines: lines.map(({ line, count }) => ({ line, count })),
    companyId: choice.companyId,
    pickup: choice.way === 'courier' ? { type: 4, pointId: null } : { type: 1, pointId: choice.pointId },
    returnOf,
    comment: code ? `Return ${code}` : null,
  };
}

export class ReturnWays {
  constructor(
    private readonly reference: ReferenceData,
    private readonly orders: OrderService,
  ) {}
  /** The ways back the shop allows from where the buyer received the order, each priced for these lines. */
  async options(
    scope: Scope,
    order: Delivered,
    settings: ReturnSettings,
    lines: Array<{ line: number; count: number; reason: ReturnReason }>,
  ): Promise<ReturnOption[]> {
    const options: ReturnOption[] = [];
    const locality = this.localityOf(order);
    for (const entry of settings.ways) {
      for (const companyId of entry.companyIds) {
        const registered = await this.reference.registry.companyOf(scope.accountId, companyId);
        if (!registered) continue;
        const points =
          entry.way === 'courier' || !locality
            ? []
            : this.nearestPoints(companyId, locality.id, order, entry.way === 'post');
        if (entry.way !== 'courier' && points.length === 0) continue;
        const cost = await this.priceOf(scope, order, lines, {
          way: entry.way,
          companyId,
          pointId: points[0]?.id ?? null,
        });
        options.push({
          way: entry.way,
          companyId,
          companyName: registered.company.name,
          cost,
          payer: payerOf(settings.payer, lines),
          points: points.map((point) => ({ id: point.id, name: point.name, address: point.address })),
        });
      }
    }
    return options;
  }

  private localityOf(order: Delivered) {
    const city = order.deliveryAddress.city;
    return this.reference.localities.find({
      countryCode: city.countryCode ?? undefined,
      fias: city.fias ?? undefined,
      name: city.name ?? undefined,
      region: city.region ?? undefined,
    });
  }

  private nearestPoints(companyId: number, localityId: number, order: Delivered, post: boolean) {
    const from =
      order.delivery.point ?? this.reference.localities.find({ name: order.deliveryAddress.city.name ?? '' });
    const points = this.reference.registry
      .pointsIn(companyId, localityId)
      .filter((point) => (post ? point.type === 3 : point.type !== 3));
    if (from)
      points.sort(
        (a, b) =>
          (a.latitude - from.latitude) ** 2 +
          (a.longitude - from.longitude) ** 2 -
          ((b.latitude - from.latitude) ** 2 + (b.longitude - from.longitude) ** 2),
      );
    return points.slice(0, POINTS_OFFERED);
  }

  /** The return parcel's price (roubles), or null when the company cannot carry it. */
  async priceOf(
    scope: Scope,
    order: Delivered,
    lines: Array<{ line: number; count: number }>,
    choice: { way: ReturnWay; companyId: number; pointId: number | null },
  ): Promise<number | null> {
    try {
      const doc = await this.orders.returnParcels.compose(scope, order.id, parcelSpec(lines, choice, null, null));
      return doc.error ? null : doc.delivery.price;
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) return null;
      throw error;
    }
  }
}
