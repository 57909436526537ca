/**
 * The recipient's public tracking page and the public status answer: who may see what.
 *
 * - A sealed link (`/track/{company}/{track}/{seal}`) shows the page: statuses, the pickup
 *   point or the city, the hold date, the shop and the company. Never the recipient's name,
 *   phone, e-mail or street address, nor the goods: a forwarded link must not reveal them.
 * - A track number alone (links issued before links were sealed, `/site/tracking/{track}`)
 *   shows only the current status: a track number is printed on the parcel.
 */
import type { ReferenceData } from '../companies/reference.js';
import type { OrderStatusDirectory } from '../lists/order-statuses.js';
import { CARRIER_STATUSES, STATUS } from '../orders/state.js';
import type { AccountZones, PublicParcel, TrackingService } from '../orders/tracking.js';
import type { TrackingLinks } from './links.js';
import type { HistoryEntry, Lang, StatusOnlyView, TrackingView } from './page.js';

/** The shop's own steps (a draft, a registration error): nothing a recipient can act on. */
const SHOP_ONLY_STATUSES: readonly number[] = [STATUS.draft, STATUS.error];

/** Delivered: the buyer may return goods. */
const DELIVERED: readonly number[] = [STATUS.delivered, STATUS.partlyDelivered];

/** On its way to the recipient: what is due on delivery is still to pay. */
const OUTBOUND_STATUSES: readonly number[] = [12, 13, 14, 15, 31, 32, 41, 411, 412, 42, 43, 46];

export interface PublicStatus {
  trackNumber: string;
  code: number;
  name: string;
  /** RFC 3339: when the parcel reached this status. */
  date: string;
}

export class TrackingPageService {
  constructor(
    private readonly links: TrackingLinks,
    private readonly tracking: Pick<TrackingService, 'parcelsWithTrackNumber' | 'latestParcelWithTrackNumber'>,
    private readonly reference: ReferenceData,
    private readonly statuses: OrderStatusDirectory,
    private readonly accounts: AccountZones,
    /** The shop's Telegram bot started for an order (modules/buyer-messages); absent: no link. */
    private readonly telegramLink?: (
      accountId: number,
      shopId: number | null,
      orderId: number,
    ) => Promise<string | null>,
    /** The returns page of a delivered order (modules/returns); absent: no link. */
    private readonly returnsLink?: (accountId: number, shopId: number | null, orderId: number) => string | null,
  ) {}

  /** The page of a sealed link; undefined when the link names no parcel or its seal is not that parcel's. */
  async page(companyCode: string, trackNumber: string, seal: string, lang: Lang): Promise<TrackingView | undefined> {
    const company = this.companyByCode(companyCode);
    if (!company) return undefined;
    const parcels = await this.tracking.parcelsWithTrackNumber(company.id, trackNumber);
    const parcel = parcels.find((candidate) =>
      this.links.opens(
        { companyId: company.id, trackNumber, accountId: candidate.accountId, orderId: candidate.orderId },
        seal,
      ),
    );
    if (!parcel) return undefined;
    return this.viewOf(parcel, trackNumber, lang);
  }

  /** A link without a seal: the current status only, if the company has the track number. */
  async statusOnlyPage(companyCode: string, trackNumber: string, lang: Lang): Promise<StatusOnlyView | undefined> {
    const company = this.companyByCode(companyCode);
    if (!company) return undefined;
    const parcels = await this.tracking.parcelsWithTrackNumber(company.id, trackNumber);
    const parcel = parcels.sort((a, b) => b.orderId - a.orderId)[0];
    if (!parcel) return undefined;
    const latest = parcel.doc.statusHistory[0];
    return {
      lang,
      timeZone: await this.accounts.timeZoneOf(parcel.accountId),
      trackNumber,
      companyName: this.companyName(parcel),
      status: {
        code: parcel.doc.status,
        name: this.statuses.name(parcel.doc.status, lang),
        at: latest?.date ?? parcel.doc.creationDate,
        description: null,
      },
    };
  }

  /** `GET /site/tracking/{trackNumber}`: the current status of the latest order with that number. */
  async publicStatus(trackNumber: string, lang: Lang): Promise<PublicStatus | undefined> {
    const parcel = await this.tracking.latestParcelWithTrackNumber(trackNumber);
    if (!parcel) return undefined;
    return {
      trackNumber,
      code: parcel.doc.status,
      name: this.statuses.name(parcel.doc.status, lang),
      date: parcel.doc.statusHistory[0]?.date ?? parcel.doc.creationDate,
    };
  }

  private companyByCode(code: string) {
    return this.reference.registry.all().find((entry) => entry.company.code === code)?.company;
  }

  private companyName(parcel: PublicParcel): string {
    return this.reference.registry.get(parcel.companyId)?.company.name ?? parcel.doc.delivery.company.name ?? '';
  }

  private async viewOf(parcel: PublicParcel, trackNumber: string, lang: Lang): Promise<TrackingView> {
    const { doc } = parcel;
    // A company's description of its own status can tell more (which sorting centre); the built-in
    // companies' are our English words for the status, which the name already says in the page's language.
    // Our descriptions of the other statuses are for the shop (a registration error), not the recipient.
    const companyWords = this.reference.registry.get(parcel.companyId)?.driver.code !== 'tariff';
    const history: HistoryEntry[] = doc.statusHistory
      .filter((item, index) => index === 0 || !SHOP_ONLY_STATUSES.includes(item.code))
      .map((item) => {
        const name = this.statuses.name(item.code, lang);
        const description =
          companyWords && CARRIER_STATUSES.includes(item.code) && item.description && item.description !== name
            ? item.description
            : null;
        return { code: item.code, name, at: item.date, description };
      });
    if (history.length === 0)
      history.push({
        code: doc.status,
        name: this.statuses.name(doc.status, lang),
        at: doc.creationDate,
        description: null,
      });
    const point = doc.delivery.point;
    const unpaid = doc.priceCod > 0 && doc.pay.status.code !== 'paid' && OUTBOUND_STATUSES.includes(doc.status);
    return {
      lang,
      timeZone: await this.accounts.timeZoneOf(parcel.accountId),
      trackNumber,
      orderNumber: doc.cmsId,
      shopName: doc.brand,
      telegramUrl: (await this.telegramLink?.(parcel.accountId, doc.shopId, parcel.orderId)) ?? null,
      companyName: this.companyName(parcel),
      history,
      deliveryType: doc.delivery.type,
      city: point ? null : doc.deliveryAddress.city.name,
      expected: { from: doc.delivery.date.from, to: doc.delivery.date.to },
      point: point
        ? {
            name: point.name,
            address: point.address,
            description: point.description,
            latitude: point.latitude,
            longitude: point.longitude,
            schedule: point.schedule,
            // the hold date of a parcel that has left the point means nothing to its recipient
            holdDate: doc.status === STATUS.atPoint ? point.holdDate : null,
            storageEnding: doc.status === STATUS.atPoint && point.storagingEnds,
          }
        : null,
      codToPay: unpaid ? doc.priceCod : null,
      // a delivered order's goods may go back; a return parcel itself returns nothing
      returnsUrl:
        DELIVERED.includes(doc.status) && !doc.returnOf
          ? (this.returnsLink?.(parcel.accountId, doc.shopId, parcel.orderId) ?? null)
          : null,
    };
  }
}
