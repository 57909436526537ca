/** The `tariff` driver: prices from a rate card in data/, no network. */
import { createHash } from 'node:crypto';
import { covers } from '../points.js';
import type {
  CarrierDriver,
  CarrierQuote,
  DeliveryType,
  PickupBooking,
  PickupProgress,
  PickupRequest,
  QuoteRequest,
  Registration,
  ShipmentRequest,
  TrackingEvent,
  TrackingLinkMaker,
} from '../types.js';
import { CarrierError } from '../types.js';
import { chargeableGrams, daysOf, limitProblem, scaled, weightPriceKopecks, zoneOf } from './pricing.js';
import type { CompanyFile, RateCard } from './rate-card.js';

/** Quotes of a card for a request (pure): one per delivery type the card offers and the request asks. */
export function quoteByCard(
  card: RateCard,
  company: Pick<CompanyFile, 'coverage'>,
  request: QuoteRequest,
): CarrierQuote[] {
  // outside its coverage a network may still offer its nearest points (isFar), never a courier
  const covered = covers(company, request.recipient);
  if (limitProblem(request.cargo, card.limits)) return [];
  const zone = zoneOf(request.distanceKm, card.zoneLimitsKm);
  const base = weightPriceKopecks(
    card,
    zone,
    chargeableGrams(request.cargo, card.volumetricDivisor, request.priceMode),
  );
  const quotes: CarrierQuote[] = [];
  for (const type of request.types) {
    const tariff = card.types[type];
    if (!tariff || (!covered && type !== 1)) continue;
    quotes.push({
      type,
      tariffName: tariff.tariffName,
      priceDeliveryKopecks: scaled(base, tariff.priceFactor),
      days: daysOf(card, zone, tariff.extraDays),
      services: card.services,
      commissions: {
        declared: { percent: card.insurance.percent, minimumKopecks: card.insurance.minimumKopecks },
        codCash: { percent: card.cod.cashPercent, minimumKopecks: card.cod.minimumKopecks },
        codCard: { percent: card.cod.cardPercent, minimumKopecks: card.cod.minimumKopecks },
        acquiring: { percent: card.acquiring.percent, minimumKopecks: card.acquiring.minimumKopecks },
      },
      pointPriceFactors: card.pointPriceFactors,
    });
  }
  return quotes;
}

/** Luhn-like check digit, so a mistyped track number is refused. */
function checkDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10;
}

export class TariffDriver implements CarrierDriver {
  readonly code = 'tariff';

  constructor(
    private readonly company: CompanyFile,
    private readonly card: RateCard,
    private readonly trackingLink: TrackingLinkMaker,
  ) {}

  async quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]> {
    signal.throwIfAborted();
    return quoteByCard(this.card, this.company, request);
  }

  /** Deterministic track number: prefix, 10 digits from the account and order, a check digit. */
  async register(order: ShipmentRequest, signal: AbortSignal): Promise<Registration> {
    signal.throwIfAborted();
    if (!this.company.deliveryTypes.includes(order.type as DeliveryType)) {
      throw new CarrierError(this.company.id, `${this.company.name} does not deliver with type ${order.type}.`);
    }
    const digest = createHash('sha256').update(`${this.company.id}:${order.accountId}:${order.orderId}`).digest();
    const digits =
      String(digest.readUInt32BE(0) % 100000).padStart(5, '0') + String(order.orderId % 100000).padStart(5, '0');
    const trackNumber = `${this.prefix}${digits}${checkDigit(digits)}`;
    const trackingUrl = this.trackingLink({
      companyId: this.company.id,
      companyCode: this.company.code,
      trackNumber,
      accountId: order.accountId,
      orderId: order.orderId,
    });
    return { trackNumber, trackingUrl };
  }

  async cancel(trackNumber: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    this.requireOwn(trackNumber);
  }

  /** The built-in companies grant every extension the contract allows (orders grant it at once). */
  async extendHold(trackNumber: string, _days: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    this.requireOwn(trackNumber);
  }

  /**
   * A built-in company's courier comes within the warehouse's hours; the number is made from
   * the pickup id, so a retried booking gets the same one. Collection is simulated by the
   * pickups area (its clock), as the journey of parcels is by orders.
   */
  async schedulePickup(request: PickupRequest, signal: AbortSignal): Promise<PickupBooking> {
    signal.throwIfAborted();
    if (request.type === 4 && !this.company.pickup?.direct)
      throw new CarrierError(this.company.id, `${this.company.name} has no courier of its own to collect parcels.`);
    return {
      number: `${this.prefix}-P${String(request.pickupId).padStart(8, '0')}`,
      timeFrom: request.hours.from,
      timeTo: request.hours.to,
    };
  }

  async cancelPickup(number: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (!number.startsWith(`${this.prefix}-P`))
      throw new CarrierError(this.company.id, `${number} is not a pickup of ${this.company.name}.`);
  }

  /** Built-in pickups are collected by the pickups area's clock: the company itself only knows they are booked. */
  async pickupProgress(_number: string, signal: AbortSignal): Promise<PickupProgress> {
    signal.throwIfAborted();
    return { state: 'scheduled' };
  }

  /** The tariff driver knows only that a parcel was registered; the journey is simulated elsewhere. */
  async track(trackNumbers: string[], signal: AbortSignal): Promise<TrackingEvent[]> {
    signal.throwIfAborted();
    return trackNumbers
      .filter((number) => this.isOwn(number))
      .map((trackNumber) => ({
        trackNumber,
        statusCode: 13,
        at: new Date().toISOString(),
        description: 'Registered with the delivery company',
      }));
  }

  private get prefix(): string {
    return this.company.trackPrefix ?? this.company.code.slice(0, 2).toUpperCase();
  }

  private isOwn(trackNumber: string): boolean {
    const match = new RegExp(`^${this.prefix}(\\d{10})(\\d)$`).exec(trackNumber);
    return match !== null && checkDigit(match[1]) === Number(match[2]);
  }

  private requireOwn(trackNumber: string): void {
    if (!this.isOwn(trackNumber))
      throw new CarrierError(this.company.id, `${trackNumber} is not a track number of ${this.company.name}.`);
  }
}
