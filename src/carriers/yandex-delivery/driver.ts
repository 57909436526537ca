/**
 * Yandex Delivery ("other day" platform API): the mapper and the proxy joined, every call
 * through the company's resilience layer. Parcels leave from the contract's platform
 * station (the shop's warehouse or drop-off point registered with Yandex).
 */
import { DIRECTORY_TIMEOUT_MS, type RemoteCompany } from '../remote-call.js';
import type {
  CarrierQuote,
  ContractDriver,
  ImportedPoint,
  PickupBooking,
  PickupProgress,
  QuoteRequest,
  Registration,
  ShipmentRequest,
  TrackingEvent,
} from '../types.js';
import { CarrierError } from '../types.js';
import * as mapper from './mapper.js';
import { YandexDeliveryProxy } from './proxy.js';

export interface YandexDeliveryCredentials {
  token: string;
  /** The `platform_station_id` parcels are shipped from. */
  stationId: string;
}

export class YandexDeliveryDriver implements ContractDriver {
  readonly code = 'yandex-delivery';
  private readonly proxy: YandexDeliveryProxy;

  constructor(
    private readonly remote: RemoteCompany,
    private readonly credentials: YandexDeliveryCredentials,
    baseUrl: string,
  ) {
    this.proxy = new YandexDeliveryProxy(remote.companyId, baseUrl, credentials.token);
  }

  /** location/detect answers only to a valid token (the station id is checked by the first quote). */
  async checkCredentials(signal: AbortSignal): Promise<void> {
    await this.remote.run('auth', 'once', signal, (attempt) =>
      this.proxy.call('POST', '/location/detect', attempt, { location: 'Москва' }),
    );
  }

  /** pricing-calculator once per type asked (courier: `time_interval`; pickup point: `self_pickup` to the calculator's point). */
  async quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]> {
    const asked = ([1, 2] as const).filter((type) => request.types.includes(type));
    const settled = await Promise.allSettled(
      asked.map(async (type) => {
        const body = mapper.pricingRequest(request, type, this.credentials.stationId);
        if (!body) return [];
        return mapper.quoteOfPricing(
          await this.remote.run('quote', 'safe', signal, (attempt) =>
            this.proxy.call('POST', '/pricing-calculator', attempt, body),
          ),
          type,
        );
      }),
    );
    const quotes = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed && quotes.length === 0) throw failed.reason;
    return quotes;
  }

  /** request/info by `request_id` or by our order number (`request_code`); null when Yandex holds none. */
  private async info(query: string, signal: AbortSignal): Promise<mapper.YandexRequestInfo | null> {
    return mapper.requestInfo(
      await this.remote.run('lookup', 'safe', signal, (attempt) =>
        this.proxy.find('GET', `/request/info?${query}`, attempt),
      ),
    );
  }

  /**
   * Looks the order up by our number first (`operator_request_id`, found again as
   * request/info `request_code`), so a retry after a lost confirmation finds the order
   * instead of making a second; then offers/create (offers only, safe to repeat), and
   * offers/confirm of the cheapest offer (once). A confirmation Yandex refuses because the
   * number is taken is the same case, answered by the lookup.
   */
  async register(order: ShipmentRequest, signal: AbortSignal): Promise<Registration> {
    const number = order.details?.number;
    if (!number)
      throw new CarrierError(
        this.remote.companyId,
        'Yandex Delivery needs the recipient and the address of the order.',
      );
    const byNumber = `request_code=${encodeURIComponent(number)}`;
    let info = await this.info(byNumber, signal);
    if (!info) {
      try {
        info = await this.create(order, signal);
      } catch (error) {
        if (!(error instanceof CarrierError) || error.transient || !mapper.isDuplicateNumber(error.message))
          throw error;
        info = await this.info(byNumber, signal);
        if (!info) throw error;
      }
    }
    return { trackNumber: info.requestId, trackingUrl: info.sharingUrl ?? '' };
  }

  private async create(order: ShipmentRequest, signal: AbortSignal): Promise<mapper.YandexRequestInfo> {
    const body = mapper.offersRequest(order, this.credentials.stationId);
    const offerId = mapper.bestOffer(
      await this.remote.run('offers', 'safe', signal, (attempt) =>
        this.proxy.call('POST', '/offers/create', attempt, body),
      ),
    );
    if (!offerId) throw new CarrierError(this.remote.companyId, 'Yandex Delivery offered no delivery for this order.');
    const requestId = mapper.confirmedRequestId(
      await this.remote.run('register', 'once', signal, (attempt) =>
        this.proxy.call('POST', '/offers/confirm', attempt, { offer_id: offerId }),
      ),
    );
    // asked again later (the job's retry), the lookup by number finds the order
    if (!requestId)
      throw new CarrierError(this.remote.companyId, 'Yandex Delivery confirmed the offer without the order id.', true);
    return (
      (await this.info(`request_id=${encodeURIComponent(requestId)}`, signal)) ?? {
        requestId,
        sharingUrl: null,
        status: null,
      }
    );
  }

  async cancel(trackNumber: string, signal: AbortSignal): Promise<void> {
    const answer = await this.remote.run('cancel', 'once', signal, (attempt) =>
      this.proxy.find('POST', '/request/cancel', attempt, { request_id: trackNumber }),
    );
    if (answer === null) return; // nothing to cancel
    const refusal = mapper.cancelRefusal(answer);
    if (refusal) throw new CarrierError(this.remote.companyId, `Yandex Delivery refused: ${refusal}`);
  }

  async track(trackNumbers: string[], signal: AbortSignal): Promise<TrackingEvent[]> {
    const events: TrackingEvent[] = [];
    for (const trackNumber of trackNumbers) {
      const body = await this.remote.run('track', 'safe', signal, (attempt) =>
        this.proxy.find('GET', `/request/history?request_id=${encodeURIComponent(trackNumber)}`, attempt),
      );
      events.push(...mapper.eventsOfHistory(trackNumber, body)); // unknown to Yandex: nothing to report
    }
    return events;
  }

  async extendHold(): Promise<void> {
    throw new CarrierError(this.remote.companyId, 'Yandex Delivery offers no storage extension through its API.');
  }

  async schedulePickup(): Promise<PickupBooking> {
    throw new CarrierError(
      this.remote.companyId,
      'Yandex Delivery parcels are handed in at the platform station of the contract; its intakes (отгрузки) are arranged in the Yandex Delivery cabinet.',
    );
  }

  async cancelPickup(): Promise<void> {
    throw new CarrierError(this.remote.companyId, 'Yandex Delivery intakes are not booked through this service.');
  }

  async pickupProgress(): Promise<PickupProgress> {
    return { state: 'canceled', message: 'Yandex Delivery intakes are not booked through this service.' };
  }

  /** Yandex requires its own label on the parcel: request/generate-labels answers the PDF. */
  async label(trackNumber: string, signal: AbortSignal): Promise<Buffer> {
    const answer = await this.remote.run('label', 'safe', signal, (attempt) =>
      this.proxy.file('/request/generate-labels', attempt, {
        request_ids: [trackNumber],
        generate_type: 'one',
        language: 'ru',
      }),
    );
    if (!answer.bytes.subarray(0, 5).equals(Buffer.from('%PDF-')))
      throw new CarrierError(this.remote.companyId, 'Yandex Delivery answered a label that is not a PDF.', true);
    return answer.bytes;
  }

  /** pickup-points/list with an empty filter: every point, locker and drop-off warehouse (the mapper keeps points and lockers). */
  async points(signal: AbortSignal): Promise<ImportedPoint[]> {
    return mapper.pointsOf(
      await this.remote.run(
        'points',
        'safe',
        signal,
        (attempt) => this.proxy.call('POST', '/pickup-points/list', attempt, {}),
        DIRECTORY_TIMEOUT_MS,
      ),
    );
  }
}
