/** CDEK: the mapper and the proxy joined, every call through the company's resilience layer. */
import { DIRECTORY_TIMEOUT_MS, pause, type RemoteCompany } from '../remote-call.js';
import type {
  ContractDriver,
  CarrierQuote,
  ImportedPoint,
  PickupBooking,
  PickupProgress,
  PickupRequest,
  QuoteRequest,
  Registration,
  ShipmentRequest,
  TrackingEvent,
} from '../types.js';
import { CarrierError } from '../types.js';
import * as mapper from './mapper.js';
import { CdekProxy, type CdekCredentials } from './proxy.js';

export interface CdekOptions {
  baseUrl: string;
  /** Pause between reads of an order (or label) CDEK is still processing, and how many reads. */
  settleMs?: number;
  settleReads?: number;
}

/** How long a tariff's insurance rate, as CDEK priced it, is reused (a contract's rate changes with the contract). */
export const INSURANCE_RATE_TTL_MS = 60 * 60_000;
/** The least declared value whose insurance sum (kopecks) tells CDEK's percent to 3 decimals. */
const RATE_LEARNING_MIN_KOPECKS = 100_000;

export class CdekDriver implements ContractDriver {
  readonly code = 'cdek';
  private readonly proxy: CdekProxy;
  /** Percent of the declared value CDEK charged to insure, per tariff code, and until when it is trusted. */
  private readonly insuranceRates = new Map<number, { percent: number; until: number }>();

  constructor(
    private readonly remote: RemoteCompany,
    credentials: CdekCredentials,
    private readonly options: CdekOptions,
  ) {
    this.proxy = new CdekProxy(remote.companyId, options.baseUrl, credentials);
  }

  checkCredentials(signal: AbortSignal): Promise<void> {
    return this.remote.run('auth', 'once', signal, (attempt) => this.proxy.authenticate(attempt));
  }

  /**
   * The tariff list, then (with a declared value) CDEK's own insurance of each tariff chosen,
   * asked at once. CDEK's insurance is its contract's percent of the declared value: a rate
   * learned from its answer is reused for INSURANCE_RATE_TTL_MS, so only the first quote of a
   * tariff in that time pays the second round trip.
   */
  async quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]> {
    const body = await this.remote.run('quote', 'safe', signal, (attempt) =>
      this.proxy.call('POST', '/calculator/tarifflist', attempt, mapper.tariffListRequest(request)),
    );
    const chosen = mapper.chosenTariffs(body, request.types, request.pointType);
    const declaredKopecks = request.declaredKopecks ?? 0;
    if (declaredKopecks <= 0) return mapper.quotesFromTariffs(chosen);
    const now = Date.now();
    const priced = await Promise.all(
      mapper.tariffsToPrice(chosen).map(async ({ tariff_code: code }) => {
        const known = this.insuranceRates.get(code);
        if (known && known.until > now) return [code, Math.round((known.percent * declaredKopecks) / 100)] as const;
        const answer = await this.remote.run('quote', 'safe', signal, (attempt) =>
          this.proxy.call('POST', '/calculator/tariff', attempt, mapper.tariffRequest(request, code)),
        );
        const kopecks = mapper.insuranceKopecksOf(answer);
        // CDEK's sum is rounded to the kopeck: from 1000 roubles up it tells the percent to 3 decimals
        if (declaredKopecks >= RATE_LEARNING_MIN_KOPECKS)
          this.insuranceRates.set(code, {
            percent: Math.round((kopecks * 100_000) / declaredKopecks) / 1000,
            until: now + INSURANCE_RATE_TTL_MS,
          });
        return [code, kopecks] as const;
      }),
    );
    return mapper.quotesFromTariffs(chosen, { declaredKopecks, byTariff: new Map(priced) });
  }

  /**
   * Looks the order up by our number first, so a retried registration (a lost answer, a
   * retried job) finds the order it made instead of making a second one.
   */
  async register(order: ShipmentRequest, signal: AbortSignal): Promise<Registration> {
    const details = order.details;
    if (!details)
      throw new CarrierError(this.remote.companyId, 'CDEK needs the recipient and the address of the order.');
    let info = await this.lookup(`im_number=${encodeURIComponent(mapper.cdekNumberOf(order))}`, signal);
    if (!info && order.returnParcel) info = await this.clientReturn(order, order.returnParcel, signal);
    if (!info) {
      const tariffCode = await this.tariffOf(order, signal);
      const created = await this.remote.run('register', 'once', signal, (attempt) =>
        this.proxy.call('POST', '/orders', attempt, mapper.orderRequest(order, tariffCode)),
      );
      info = mapper.orderInfo(created);
      if (!info) throw new CarrierError(this.remote.companyId, 'CDEK answered without the order uuid.', true);
      if (info.state === 'invalid')
        throw new CarrierError(this.remote.companyId, `CDEK refused: ${mapper.problemText(info.problems)}`);
    }
    for (let read = 0; !info.cdekNumber && read < (this.options.settleReads ?? 3); read++) {
      await pause(this.options.settleMs ?? 1000, signal);
      const uuid = info.uuid;
      const current = mapper.orderInfo(
        await this.remote.run('order', 'safe', signal, (attempt) => this.proxy.call('GET', `/orders/${uuid}`, attempt)),
      );
      if (current) info = current;
      if (info.state === 'invalid')
        throw new CarrierError(this.remote.companyId, `CDEK refused: ${mapper.problemText(info.problems)}`);
    }
    // asked again later (the job's retry), the lookup finds the order and reads its number
    if (!info.cdekNumber)
      throw new CarrierError(this.remote.companyId, 'CDEK has accepted the order but not numbered it yet.', true);
    return { trackNumber: info.cdekNumber, trackingUrl: `https://www.cdek.ru/ru/tracking?order_id=${info.cdekNumber}` };
  }

  /**
   * A buyer's return of goods CDEK delivered: CDEK's own product, the client return
   * (POST /v2/orders/{uuid}/clientReturn with the tariff back), which CDEK takes only for an
   * order in its final status "Вручен" (DELIVERED). The return order it makes is numbered like
   * any order; the rest of registration reads that number. An original CDEK does not know (a
   * parcel of another company, or of another contract) is registered as an ordinary order back.
   */
  private async clientReturn(
    order: ShipmentRequest,
    parcel: NonNullable<ShipmentRequest['returnParcel']>,
    signal: AbortSignal,
  ): Promise<mapper.CdekOrderInfo | null> {
    if (!parcel.originalTrackNumber) return null;
    const answer = await this.remote.run('lookup', 'safe', signal, (attempt) =>
      this.proxy.raw('GET', `/orders?cdek_number=${encodeURIComponent(parcel.originalTrackNumber as string)}`, attempt),
    );
    if (answer.status === 404 || answer.status === 400) return null;
    const original = mapper.orderInfo(JSON.parse(answer.text));
    if (!original) return null;
    if (!mapper.isDelivered(JSON.parse(answer.text)))
      throw new CarrierError(
        this.remote.companyId,
        `CDEK takes a client return only of an order it has delivered: ${parcel.originalTrackNumber} is not delivered.`,
      );
    const tariffCode = await this.tariffOf(order, signal);
    const made = await this.remote.run('register', 'once', signal, (attempt) =>
      this.proxy.call('POST', `/orders/${original.uuid}/clientReturn`, attempt, { tariff_code: tariffCode }),
    );
    const info = mapper.orderInfo(made);
    if (!info) throw new CarrierError(this.remote.companyId, 'CDEK answered the client return without its uuid.', true);
    if (info.state === 'invalid')
      throw new CarrierError(
        this.remote.companyId,
        `CDEK refused the client return: ${mapper.problemText(info.problems)}`,
      );
    return info;
  }

  /** The tariff a parcel registers with: the one it was priced with where CDEK still offers it, else the cheapest of its type. */
  private async tariffOf(order: ShipmentRequest, signal: AbortSignal): Promise<number> {
    const details = order.details as NonNullable<ShipmentRequest['details']>;
    const tariffs = await this.remote.run('quote', 'safe', signal, (attempt) =>
      this.proxy.call(
        'POST',
        '/calculator/tarifflist',
        attempt,
        mapper.tariffListRequest(mapper.quoteOfShipment(order)),
      ),
    );
    const tariffCode = mapper.tariffCodeFor(
      tariffs,
      order.type,
      details.pointCode ? (details.pointType ?? null) : null,
      details.tariffName ?? null,
    );
    if (tariffCode === null)
      throw new CarrierError(this.remote.companyId, 'CDEK has no tariff for this route and delivery type.');
    return tariffCode;
  }

  /** The order by a query of GET /v2/orders (`im_number=` or `cdek_number=`), or null when CDEK has none. */
  private async lookup(query: string, signal: AbortSignal): Promise<mapper.CdekOrderInfo | null> {
    const answer = await this.remote.run('lookup', 'safe', signal, (attempt) =>
      this.proxy.raw('GET', `/orders?${query}`, attempt),
    );
    if (answer.status === 404 || answer.status === 400) return null;
    try {
      return mapper.orderInfo(JSON.parse(answer.text));
    } catch {
      return null;
    }
  }

  async cancel(trackNumber: string, signal: AbortSignal): Promise<void> {
    const info = await this.lookup(`cdek_number=${encodeURIComponent(trackNumber)}`, signal);
    if (!info) return; // nothing to cancel (already removed)
    await this.remote.run('cancel', 'once', signal, (attempt) =>
      this.proxy.call('DELETE', `/orders/${info.uuid}`, attempt),
    );
  }

  async track(trackNumbers: string[], signal: AbortSignal): Promise<TrackingEvent[]> {
    const events: TrackingEvent[] = [];
    for (const trackNumber of trackNumbers) {
      const answer = await this.remote.run('track', 'safe', signal, (attempt) =>
        this.proxy.raw('GET', `/orders?cdek_number=${encodeURIComponent(trackNumber)}`, attempt),
      );
      if (answer.status >= 400) continue; // unknown to CDEK: nothing to report
      events.push(...mapper.eventsOfOrder(trackNumber, JSON.parse(answer.text)));
    }
    return events;
  }

  async extendHold(): Promise<void> {
    throw new CarrierError(
      this.remote.companyId,
      'CDEK offers no storage extension through its API; ask CDEK support.',
    );
  }

  async schedulePickup(request: PickupRequest, signal: AbortSignal): Promise<PickupBooking> {
    const body = await this.remote.run('pickup', 'once', signal, (attempt) =>
      this.proxy.call('POST', '/intakes', attempt, mapper.intakeRequest(request)),
    );
    const info = mapper.orderInfo(body);
    if (!info) throw new CarrierError(this.remote.companyId, 'CDEK answered without the intake uuid.');
    if (info.state === 'invalid')
      throw new CarrierError(this.remote.companyId, `CDEK refused: ${mapper.problemText(info.problems)}`);
    return { number: info.uuid, timeFrom: request.hours.from, timeTo: request.hours.to };
  }

  async cancelPickup(number: string, signal: AbortSignal): Promise<void> {
    await this.remote.run('cancelPickup', 'once', signal, (attempt) =>
      this.proxy.call('DELETE', `/intakes/${encodeURIComponent(number)}`, attempt),
    );
  }

  async pickupProgress(number: string, signal: AbortSignal): Promise<PickupProgress> {
    return mapper.intakeProgress(
      await this.remote.run('pickupProgress', 'safe', signal, (attempt) =>
        this.proxy.call('GET', `/intakes/${encodeURIComponent(number)}`, attempt),
      ),
    );
  }

  /** CDEK requires its own barcode label on each place: POST /print/barcodes, read until ready, then the PDF. */
  async label(trackNumber: string, signal: AbortSignal): Promise<Buffer> {
    const asked = mapper.orderInfo(
      await this.remote.run('label', 'once', signal, (attempt) =>
        this.proxy.call('POST', '/print/barcodes', attempt, { orders: [{ cdek_number: trackNumber }], format: 'A6' }),
      ),
    );
    if (!asked) throw new CarrierError(this.remote.companyId, 'CDEK answered without the label uuid.');
    for (let read = 0; read <= (this.options.settleReads ?? 3); read++) {
      const body = (await this.remote.run('label', 'safe', signal, (attempt) =>
        this.proxy.call('GET', `/print/barcodes/${asked.uuid}`, attempt),
      )) as { entity?: { url?: unknown } } | null;
      const url = body?.entity?.url;
      if (typeof url === 'string' && url !== '') {
        const pdf = await this.remote.run('label', 'safe', signal, (attempt) => this.proxy.raw('GET', url, attempt));
        if (pdf.status !== 200 || !pdf.bytes.subarray(0, 5).equals(Buffer.from('%PDF-')))
          throw new CarrierError(this.remote.companyId, 'CDEK answered a label that is not a PDF.', true);
        return pdf.bytes;
      }
      await pause(this.options.settleMs ?? 1000, signal);
    }
    throw new CarrierError(this.remote.companyId, 'CDEK has not made the label yet.', true);
  }

  async points(signal: AbortSignal): Promise<ImportedPoint[]> {
    return mapper.pointsOf(
      await this.remote.run(
        'points',
        'safe',
        signal,
        (attempt) => this.proxy.call('GET', '/deliverypoints?country_code=RU', attempt),
        DIRECTORY_TIMEOUT_MS,
      ),
    );
  }

  /** POST /v2/webhooks of type ORDER_STATUS, unless GET /v2/webhooks already lists the url (connecting again). */
  async subscribeStatusWebhook(url: string, signal: AbortSignal): Promise<void> {
    const known = await this.remote.run('webhooks', 'safe', signal, (attempt) =>
      this.proxy.call('GET', '/webhooks', attempt),
    );
    if (mapper.statusWebhookUuids(known, url).length > 0) return;
    const created = mapper.orderInfo(
      await this.remote.run('webhooks', 'once', signal, (attempt) =>
        this.proxy.call('POST', '/webhooks', attempt, { type: 'ORDER_STATUS', url }),
      ),
    );
    if (!created) throw new CarrierError(this.remote.companyId, 'CDEK answered without the webhook uuid.', true);
  }

  /** DELETE /v2/webhooks/{uuid} of every ORDER_STATUS subscription GET /v2/webhooks lists for `url` (one already gone, 404, is done). */
  async unsubscribeStatusWebhook(url: string, signal: AbortSignal): Promise<void> {
    const known = await this.remote.run('webhooks', 'safe', signal, (attempt) =>
      this.proxy.call('GET', '/webhooks', attempt),
    );
    for (const uuid of mapper.statusWebhookUuids(known, url)) {
      const answer = await this.remote.run('webhooks', 'once', signal, (attempt) =>
        this.proxy.raw('DELETE', `/webhooks/${encodeURIComponent(uuid)}`, attempt),
      );
      if (answer.status >= 400 && answer.status !== 404)
        throw new CarrierError(this.remote.companyId, `CDEK did not delete the webhook: answered ${answer.status}.`);
    }
  }
}
