/** Boxberry: the mapper and the proxy joined, every call through the company's resilience layer. */
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
import { BoxberryProxy } from './proxy.js';

export class BoxberryDriver implements ContractDriver {
  readonly code = 'boxberry';
  private readonly proxy: BoxberryProxy;

  constructor(
    private readonly remote: RemoteCompany,
    token: string,
    baseUrl: string,
    /** Today's date, `YYYY-MM-DD` (the storage date Boxberry is told is counted from it). */
    private readonly today: () => string = () => new Date().toISOString().slice(0, 10),
  ) {
    this.proxy = new BoxberryProxy(remote.companyId, baseUrl, token);
  }

  /** OrdersBalance needs a valid token and reads nothing heavy. */
  async checkCredentials(signal: AbortSignal): Promise<void> {
    await this.remote.run('auth', 'once', signal, (attempt) => this.proxy.get('OrdersBalance', {}, attempt));
  }

  /**
   * One DeliveryCosts call per type asked: type 1 to the point the calculator names
   * (`pointCode`, Boxberry's `target`), type 2 to the recipient's postal code. One type
   * refused (a point Boxberry no longer serves) leaves the other; both failing is the failure.
   * The order's declared value and COD go with it, so Boxberry's price holds its own fees.
   */
  async quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]> {
    const destinations: mapper.CostsDestination[] = [];
    if (request.types.includes(1) && request.pointCode) destinations.push({ type: 1, target: request.pointCode });
    if (request.types.includes(2) && request.recipient.postalCode)
      destinations.push({ type: 2, zip: request.recipient.postalCode });
    const { declaredRoubles, codRoubles } = mapper.costsSums(request);
    const settled = await Promise.allSettled(
      destinations.map(async (destination) => {
        const body = await this.remote.run('quote', 'safe', signal, (attempt) =>
          this.proxy.get(
            'DeliveryCosts',
            mapper.deliveryCostsQuery(request, destination, declaredRoubles, codRoubles),
            attempt,
          ),
        );
        return mapper.quoteOfCosts(body, destination.type);
      }),
    );
    const quotes = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed && quotes.length === 0) throw failed.reason;
    return quotes;
  }

  /**
   * ParselCreate; Boxberry refuses an `order_id` it already has (an update would need
   * `updateByTrack`), so a retried registration whose first answer was lost is refused as a
   * number taken: the parcel made then is found by ParcelInfo and registration goes on with it,
   * however that refusal came (an error body of a 200 or of a 5xx alike).
   */
  async register(order: ShipmentRequest, signal: AbortSignal): Promise<Registration> {
    const details = order.details;
    if (!details)
      throw new CarrierError(this.remote.companyId, 'Boxberry needs the recipient and the address of the order.');
    let parcel: { track: string } | null;
    try {
      parcel = mapper.createdParcel(
        await this.remote.run('register', 'once', signal, (attempt) =>
          this.proxy.post('ParselCreate', mapper.parcelData(order), attempt),
        ),
      );
    } catch (error) {
      if (!(error instanceof CarrierError) || !mapper.NUMBER_TAKEN.test(error.message)) throw error;
      const info = await this.remote.run('lookup', 'safe', signal, (attempt) =>
        this.proxy.post('ParcelInfo', { parcels: [{ order_id: details.number }] }, attempt),
      );
      parcel = mapper.parcelOfInfo(info, details.number);
      if (!parcel) throw error;
    }
    if (!parcel) throw new CarrierError(this.remote.companyId, 'Boxberry answered without a track number.', true);
    return {
      trackNumber: parcel.track,
      trackingUrl: `https://boxberry.ru/tracking-page?id=${encodeURIComponent(parcel.track)}`,
    };
  }

  async cancel(trackNumber: string, signal: AbortSignal): Promise<void> {
    await this.remote.run('cancel', 'once', signal, (attempt) =>
      this.proxy.get('ParselDel', { ImId: trackNumber }, attempt),
    );
  }

  async track(trackNumbers: string[], signal: AbortSignal): Promise<TrackingEvent[]> {
    const events: TrackingEvent[] = [];
    for (const trackNumber of trackNumbers) {
      const body = await this.remote
        .run('track', 'safe', signal, (attempt) => this.proxy.get('ListStatuses', { ImId: trackNumber }, attempt))
        .catch((error: unknown) => {
          if (error instanceof CarrierError && !error.transient) return []; // unknown to Boxberry: nothing to report
          throw error;
        });
      events.push(...mapper.eventsOfStatuses(trackNumber, body));
    }
    return events;
  }

  /** ChangeOrderStorageDate: the new last day of storage, `days` from today. */
  async extendHold(trackNumber: string, days: number, signal: AbortSignal): Promise<void> {
    const until = new Date(Date.parse(`${this.today()}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    await this.remote.run('extendHold', 'once', signal, (attempt) =>
      this.proxy.post('ChangeOrderStorageDate', { ImId: trackNumber, StorageDate: until }, attempt),
    );
  }

  async schedulePickup(): Promise<PickupBooking> {
    throw new CarrierError(
      this.remote.companyId,
      'Boxberry collects by the courier intake arranged in its personal account; hand the parcels in at a Boxberry point or book the intake there.',
    );
  }

  async cancelPickup(): Promise<void> {
    throw new CarrierError(this.remote.companyId, 'Boxberry intakes are not booked through this service.');
  }

  async pickupProgress(): Promise<PickupProgress> {
    return { state: 'canceled', message: 'Boxberry intakes are not booked through this service.' };
  }

  /** Boxberry requires its own label: ParselCheck gives its link, then the PDF. */
  async label(trackNumber: string, signal: AbortSignal): Promise<Buffer> {
    const body = (await this.remote.run('label', 'safe', signal, (attempt) =>
      this.proxy.get('ParselCheck', { ImId: trackNumber }, attempt),
    )) as { label?: unknown } | null;
    const url = body?.label;
    if (typeof url !== 'string' || url === '')
      throw new CarrierError(this.remote.companyId, 'Boxberry answered without a label link.', true);
    const pdf = await this.remote.run('label', 'safe', signal, (attempt) => this.proxy.download(url, attempt));
    if (!pdf.bytes.subarray(0, 5).equals(Buffer.from('%PDF-')))
      throw new CarrierError(this.remote.companyId, 'Boxberry answered a label that is not a PDF.', true);
    return pdf.bytes;
  }

  async points(signal: AbortSignal): Promise<ImportedPoint[]> {
    return mapper.pointsOf(
      await this.remote.run(
        'points',
        'safe',
        signal,
        (attempt) => this.proxy.get('ListPoints', { prepaid: '1' }, attempt),
        DIRECTORY_TIMEOUT_MS,
      ),
    );
  }
}
