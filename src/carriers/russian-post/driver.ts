/**
 * Russian Post: the mapper and the proxy joined, every call through the company's
 * resilience layer. Tracking goes to the tracking service (SOAP, one parcel a call), since
 * the otpravka API has no status history; the batch tracking API needs a separate contract.
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
import { eachPassportElement } from './passport.js';
import { RussianPostProxy, type RussianPostCredentials } from './proxy.js';

/** The passport unloading's object type: post offices (OPS; ALL would add ПВЗ and postamats). */
const PASSPORT_OBJECTS = 'OPS';

export class RussianPostDriver implements ContractDriver {
  readonly code = 'russian-post';
  private readonly proxy: RussianPostProxy;

  constructor(
    private readonly remote: RemoteCompany,
    private readonly credentials: RussianPostCredentials,
    urls: { baseUrl: string; trackingUrl: string },
  ) {
    this.proxy = new RussianPostProxy(remote.companyId, urls.baseUrl, urls.trackingUrl, credentials);
  }

  /** GET /1.0/settings answers only to a valid token and login. */
  async checkCredentials(signal: AbortSignal): Promise<void> {
    await this.remote.run('auth', 'once', signal, (attempt) => this.proxy.call('GET', '/1.0/settings', attempt));
  }

  async quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]> {
    const declared = request.declaredKopecks ?? 0;
    const body = request.types.includes(3) ? mapper.tariffRequest(request, this.credentials.indexFrom) : null;
    if (!body) return [];
    return mapper.quoteOfTariff(
      await this.remote.run('quote', 'safe', signal, (attempt) =>
        this.proxy.call('POST', '/1.0/tariff', attempt, body),
      ),
      declared,
    );
  }

  /** The order by its number in the backlog, if an earlier attempt made it. */
  private async lookup(number: string, signal: AbortSignal): Promise<{ id: number; barcode: string | null } | null> {
    const body = await this.remote.run('lookup', 'safe', signal, (attempt) =>
      this.proxy.call('GET', `/1.0/backlog/search?query=${encodeURIComponent(number)}`, attempt),
    );
    return mapper.backlogEntry(body);
  }

  /** Looks up by order number before creating, so a retry never puts a second parcel in the backlog. */
  async register(order: ShipmentRequest, signal: AbortSignal): Promise<Registration> {
    const number = order.details?.number;
    if (!number)
      throw new CarrierError(this.remote.companyId, 'Russian Post needs the recipient and the address of the order.');
    if (order.returnParcel?.originalTrackNumber) return this.returnOf(order.returnParcel.originalTrackNumber, signal);
    let entry = await this.lookup(number, signal);
    if (!entry) {
      // `index-to` is required: said here rather than left to a refusal of index 0
      if (mapper.indexToOf(order) === null)
        throw new CarrierError(
          this.remote.companyId,
          "Russian Post needs the recipient's postal code (six digits) or a post office.",
        );
      const created = mapper.backlogResult(
        await this.remote.run('register', 'once', signal, (attempt) =>
          this.proxy.call('PUT', '/1.0/user/backlog', attempt, [
            mapper.backlogOrder(order, this.credentials.indexFrom),
          ]),
        ),
      );
      if ('problems' in created)
        throw new CarrierError(this.remote.companyId, `Russian Post refused: ${created.problems}`);
      const id = created.id;
      entry = mapper.backlogEntry(
        await this.remote.run('order', 'safe', signal, (attempt) =>
          this.proxy.call('GET', `/1.0/backlog/${id}`, attempt),
        ),
      );
    }
    if (!entry?.barcode)
      throw new CarrierError(this.remote.companyId, 'Russian Post has not given the parcel a barcode yet.', true);
    return { trackNumber: entry.barcode, trackingUrl: `https://www.pochta.ru/tracking?barcode=${entry.barcode}` };
  }

  /**
   * A buyer's return of a parcel Russian Post delivered: its own product, the return shipment
   * of an existing one (PUT /1.0/returns with the direct parcel's barcode), which gives the
   * return its own barcode; the buyer hands the parcel in at any post office.
   */
  private async returnOf(directBarcode: string, signal: AbortSignal): Promise<Registration> {
    const answer = await this.remote.run('register', 'once', signal, (attempt) =>
      this.proxy.call('PUT', '/1.0/returns', attempt, {
        'direct-barcode': directBarcode,
        'mail-type': 'POSTAL_PARCEL',
      }),
    );
    const made = mapper.returnResult(answer);
    if ('problems' in made)
      throw new CarrierError(this.remote.companyId, `Russian Post refused the return: ${made.problems}`);
    return { trackNumber: made.barcode, trackingUrl: `https://www.pochta.ru/tracking?barcode=${made.barcode}` };
  }

  async cancel(trackNumber: string, signal: AbortSignal): Promise<void> {
    const entry = await this.lookup(trackNumber, signal);
    if (!entry) return;
    await this.remote.run('cancel', 'once', signal, (attempt) =>
      this.proxy.call('DELETE', '/1.0/backlog', attempt, [entry.id]),
    );
  }

  async track(trackNumbers: string[], signal: AbortSignal): Promise<TrackingEvent[]> {
    const events: TrackingEvent[] = [];
    for (const trackNumber of trackNumbers) {
      const xml = await this.remote.run('track', 'safe', signal, (attempt) =>
        this.proxy.soap(
          mapper.operationHistoryEnvelope(
            trackNumber,
            this.credentials.trackingLogin,
            this.credentials.trackingPassword,
          ),
          attempt,
        ),
      );
      if (mapper.faultOf(xml)) continue;
      events.push(...mapper.eventsOfHistory(trackNumber, xml));
    }
    return events;
  }

  async extendHold(): Promise<void> {
    throw new CarrierError(this.remote.companyId, 'Russian Post offers no storage extension through its API.');
  }

  async schedulePickup(): Promise<PickupBooking> {
    throw new CarrierError(
      this.remote.companyId,
      'Russian Post parcels are handed in at the post office of the contract (drop-off); its courier is arranged with that office.',
    );
  }

  async cancelPickup(): Promise<void> {
    throw new CarrierError(this.remote.companyId, 'Russian Post pickups are not booked through this service.');
  }

  async pickupProgress(): Promise<PickupProgress> {
    return { state: 'canceled', message: 'Russian Post pickups are not booked through this service.' };
  }

  /** Russian Post requires its own address label (form f7p) on the parcel. */
  async label(trackNumber: string, signal: AbortSignal): Promise<Buffer> {
    const entry = await this.lookup(trackNumber, signal);
    if (!entry) throw new CarrierError(this.remote.companyId, 'Russian Post does not know this parcel.');
    const answer = await this.remote.run('label', 'safe', signal, (attempt) =>
      this.proxy.raw('GET', `/1.0/forms/${entry.id}/f7pdf`, attempt),
    );
    if (!answer.bytes.subarray(0, 5).equals(Buffer.from('%PDF-')))
      throw new CarrierError(this.remote.companyId, 'Russian Post answered a label that is not a PDF.', true);
    return answer.bytes;
  }

  /**
   * The post offices of the passport unloading (GET /1.0/unloading-passport/zip?type=OPS): the
   * whole directory in one call, where the `/postoffice/1.0/...` searches answer an index, a
   * settlement or a radius at a time (tens of thousands of calls). Offices only: ПВЗ and
   * postamats (PVZ, APS) take the ECOM product, which this driver does not register.
   */
  async points(signal: AbortSignal): Promise<ImportedPoint[]> {
    const zip = await this.remote.run(
      'points',
      'safe',
      signal,
      (attempt) => this.proxy.download(`/1.0/unloading-passport/zip?type=${PASSPORT_OBJECTS}`, attempt),
      DIRECTORY_TIMEOUT_MS,
    );
    const offices: ImportedPoint[] = [];
    try {
      eachPassportElement(zip, (element) => {
        const office = mapper.officeOfPassport(element);
        if (office) offices.push(office);
      });
    } catch (error) {
      throw new CarrierError(
        this.remote.companyId,
        `Russian Post's post-office unloading could not be read: ${(error as Error).message}`,
      );
    }
    return offices;
  }
}
