/**
 * The `http` driver: a delivery company reached over HTTP/JSON at a base URL.
 * Proxy (I/O) here; the mapping of its answers is in `mapQuotes` and `mapTrackEvents` (pure).
 */
import type {
  CarrierDriver,
  CarrierQuote,
  DeliveryType,
  PaymentMethod,
  PickupBooking,
  PickupProgress,
  PickupRequest,
  QuoteRequest,
  Registration,
  ShipmentRequest,
  TrackingEvent,
} from '../types.js';
import { CarrierError, DELIVERY_TYPES, PAYMENT_METHODS } from '../types.js';

/** What a remote carrier answers to POST {base}/quote. */
export interface RemoteQuote {
  type: number;
  tariffName?: string | null;
  price: number;
  daysMin: number;
  daysMax: number;
  services?: Array<{ id: number; price: number }>;
  insurancePercent?: number;
  codPercent?: number;
  codCardPercent?: number;
  codMinimum?: number;
  acquiringPercent?: number;
}

/** Remote answers (roubles) to our quotes (kopecks); malformed entries are dropped. */
export function mapQuotes(body: unknown, asked: DeliveryType[]): CarrierQuote[] {
  const list = Array.isArray(body)
    ? body
    : body && typeof body === 'object' && Array.isArray((body as { quotes?: unknown }).quotes)
      ? (body as { quotes: unknown[] }).quotes
      : [];
  const quotes: CarrierQuote[] = [];
  for (const item of list as RemoteQuote[]) {
    if (!item || !DELIVERY_TYPES.includes(item.type as DeliveryType) || !asked.includes(item.type as DeliveryType))
      continue;
    if (
      typeof item.price !== 'number' ||
      !(item.price >= 0) ||
      typeof item.daysMin !== 'number' ||
      typeof item.daysMax !== 'number'
    )
      continue;
    const kopecks = (roubles: number | undefined) => Math.round((roubles ?? 0) * 100);
    quotes.push({
      type: item.type as DeliveryType,
      tariffName: item.tariffName ?? null,
      priceDeliveryKopecks: kopecks(item.price),
      days: { min: item.daysMin, max: Math.max(item.daysMin, item.daysMax) },
      services: (item.services ?? [])
        .filter((service) => Number.isInteger(service.id))
        .map((service) => ({ id: service.id, priceKopecks: kopecks(service.price) })),
      commissions: {
        declared: { percent: item.insurancePercent ?? 0, minimumKopecks: 0 },
        codCash: { percent: item.codPercent ?? 0, minimumKopecks: kopecks(item.codMinimum) },
        codCard: { percent: item.codCardPercent ?? item.codPercent ?? 0, minimumKopecks: kopecks(item.codMinimum) },
        acquiring: { percent: item.acquiringPercent ?? 0, minimumKopecks: 0 },
      },
    });
  }
  return quotes;
}

/** What a remote carrier answers to POST {base}/track, as our events; entries without a track number or status are dropped. */
export function mapTrackEvents(body: unknown, now = new Date()): TrackingEvent[] {
  if (!Array.isArray(body)) return [];
  const events: TrackingEvent[] = [];
  for (const item of body as Array<Partial<Record<keyof TrackingEvent, unknown>> | null>) {
    if (!item || typeof item.trackNumber !== 'string' || item.trackNumber === '' || !Number.isInteger(item.statusCode))
      continue;
    const event: TrackingEvent = {
      trackNumber: item.trackNumber,
      statusCode: item.statusCode as number,
      at: typeof item.at === 'string' && !Number.isNaN(Date.parse(item.at)) ? item.at : now.toISOString(),
      description: typeof item.description === 'string' ? item.description : '',
    };
    // anything else than cash or card is not something we can tell: as if unsaid
    if (PAYMENT_METHODS.includes(item.paymentMethod as PaymentMethod))
      event.paymentMethod = item.paymentMethod as PaymentMethod;
    events.push(event);
  }
  return events;
}

export class HttpDriver implements CarrierDriver {
  readonly code = 'http';

  constructor(
    private readonly companyId: number,
    private readonly baseUrl: string,
  ) {}

  async quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]> {
    const body = await this.call(
      '/quote',
      {
        types: request.types,
        distanceKm: Math.round(request.distanceKm),
        from: { latitude: request.sender.latitude, longitude: request.sender.longitude },
        to: { latitude: request.recipient.latitude, longitude: request.recipient.longitude },
        weightKg: request.cargo.weightGrams / 1000,
        volumeM3: request.cargo.volumeCm3 / 1e6,
        places: request.cargo.places.map((place) => ({ weightKg: place.weightGrams / 1000, sidesCm: place.sidesCm })),
        priceMode: request.priceMode,
      },
      signal,
    );
    return mapQuotes(body, request.types);
  }

  async register(order: ShipmentRequest, signal: AbortSignal): Promise<Registration> {
    const body = (await this.call('/orders', order, signal)) as Partial<Registration>;
    if (typeof body?.trackNumber !== 'string' || typeof body.trackingUrl !== 'string')
      throw new CarrierError(this.companyId, 'The delivery company answered without a track number.');
    return { trackNumber: body.trackNumber, trackingUrl: body.trackingUrl };
  }

  async cancel(trackNumber: string, signal: AbortSignal): Promise<void> {
    await this.call('/cancel', { trackNumber }, signal);
  }

  async track(trackNumbers: string[], signal: AbortSignal): Promise<TrackingEvent[]> {
    return mapTrackEvents(await this.call('/track', { trackNumbers }, signal));
  }

  async extendHold(trackNumber: string, days: number, signal: AbortSignal): Promise<void> {
    await this.call('/extend-hold', { trackNumber, days }, signal);
  }

  async schedulePickup(request: PickupRequest, signal: AbortSignal): Promise<PickupBooking> {
    const body = (await this.call('/pickups', request, signal, true)) as Partial<
      Record<keyof PickupBooking, unknown>
    > | null;
    const number = typeof body?.number === 'number' ? String(body.number) : body?.number;
    if (
      typeof number !== 'string' ||
      number === '' ||
      typeof body?.timeFrom !== 'string' ||
      typeof body.timeTo !== 'string'
    )
      throw new CarrierError(this.companyId, 'The delivery company answered without a pickup number and interval.');
    return { number, timeFrom: body.timeFrom, timeTo: body.timeTo };
  }

  async cancelPickup(number: string, signal: AbortSignal): Promise<void> {
    await this.call('/pickups/cancel', { number }, signal, true);
  }

  async pickupProgress(number: string, signal: AbortSignal): Promise<PickupProgress> {
    const body = (await this.call('/pickups/status', { number }, signal)) as {
      state?: unknown;
      message?: unknown;
    } | null;
    const state = body?.state === 'done' || body?.state === 'canceled' ? body.state : 'scheduled';
    return typeof body?.message === 'string' ? { state, message: body.message } : { state };
  }

  /** `explainRefusal`: a 4xx answer's `message` (or `error`) becomes the error's message, for the shop to read. */
  private async call(path: string, payload: unknown, signal: AbortSignal, explainRefusal = false): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(payload),
        signal,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new CarrierError(
        this.companyId,
        `The delivery company is not reachable: ${(error as Error).message}`,
        true,
      );
    }
    const text = await response.text();
    const transient = response.status >= 500 || response.status === 429;
    if (!response.ok && explainRefusal && !transient) {
      const reason = refusalReason(text);
      if (reason) throw new CarrierError(this.companyId, `The delivery company refused: ${reason}`);
    }
    if (!response.ok)
      throw new CarrierError(this.companyId, `The delivery company answered ${response.status}.`, transient);
    try {
      return text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      throw new CarrierError(this.companyId, 'The delivery company answered something that is not JSON.');
    }
  }
}

/** The `message` or `error` sentence of a refusal's JSON body, at most 500 characters; null when there is none. */
function refusalReason(text: string): string | null {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown } | null;
    const reason =
      typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : null;
    return reason ? reason.slice(0, 500) : null;
  } catch {
    return null;
  }
}
