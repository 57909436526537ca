/** The driver contract (DESIGN.md section 6): what the calculator and orders ask of a delivery company. */

/** 1 pickup point, 2 courier, 3 national post. */
export type DeliveryType = 1 | 2 | 3;
export const DELIVERY_TYPES: readonly DeliveryType[] = [1, 2, 3];

/**
 * The sides (cm) a place without sizes is sent with to a company that requires them (CDEK
 * from 100 g and to lockers, Boxberry's `weights`, Yandex's `physical_dims`): a 10 cm cube,
 * whose volumetric weight (1000 cm3 / 5000 = 0.2 kg) never raises the price of a parcel of
 * 200 g or more. Quotes are asked with the same sides, so the price shown is the parcel's.
 */
export const DEFAULT_SIDES_CM: [number, number, number] = [10, 10, 10];

/** 1 by weight (max of actual and volumetric), 2 by actual weight, 3 by volume. */
export type PriceMode = 1 | 2 | 3;

/** One parcel place; sides sorted longest first, or null when unknown. */
export interface CargoPlace {
  sidesCm: [number, number, number] | null;
  weightGrams: number;
}

export interface Cargo {
  weightGrams: number;
  /** Total volume in cm3 (0 when unknown). */
  volumeCm3: number;
  places: CargoPlace[];
}

export interface QuotePlace {
  latitude: number;
  longitude: number;
  regionCode: string;
  localityId: number;
  population: number;
  /** For real companies' own city lookup (their calculators take a postal code or a name). */
  name?: string;
  postalCode?: string | null;
  countryCode?: string;
}

export interface QuoteRequest {
  types: DeliveryType[];
  sender: QuotePlace;
  recipient: QuotePlace;
  /** Great-circle distance sender -> recipient locality, km. */
  distanceKm: number;
  cargo: Cargo;
  priceMode: PriceMode;
  /**
   * The company's own code of the point its type-1 price is asked for (companies pricing
   * per point, e.g. Boxberry's DeliveryCosts `target`): set by the calculator per company;
   * absent when the company has no imported point there (then it offers no type 1). For a
   * post order naming one of the company's post offices, that office's code (its index).
   */
  pointCode?: string;
  /**
   * Our type of the point an order chose (1 pickup point, 2 parcel locker), when it chose one:
   * companies whose tariffs differ by the kind of point (CDEK office or locker) price that kind only.
   */
  pointType?: number;
  /**
   * The order's declared value and what the recipient pays on delivery (goods and the
   * delivery price they pay), kopecks: for companies whose calculators price their own
   * insurance and COD fees (CDEK, Boxberry). Absent: none.
   */
  declaredKopecks?: number;
  codKopecks?: number;
}

export interface CommissionRule {
  percent: number;
  minimumKopecks: number;
}

/** A price of one delivery type by one company, before commissions of the order. */
export interface CarrierQuote {
  type: DeliveryType;
  tariffName: string | null;
  priceDeliveryKopecks: number;
  /** Working days in transit. */
  days: { min: number; max: number };
  /** Every service the company offers on this tariff, with its price. */
  services: Array<{ id: number; priceKopecks: number }>;
  commissions: {
    declared: CommissionRule;
    codCash: CommissionRule;
    codCard: CommissionRule;
    acquiring: CommissionRule;
  };
  /** Price factor by pickup point type (e.g. lockers cheaper); 1 when absent. */
  pointPriceFactors?: Partial<Record<number, number>>;
}

export interface ShipmentRequest {
  orderId: number;
  accountId: number;
  type: DeliveryType;
  pointId: number | null;
  recipientLocalityId: number;
  cargo: Cargo;
  declaredKopecks: number;
  codKopecks: number;
  /** Who and where, for real companies (the simulated ones need only the locality). */
  details?: ShipmentDetails;
  /**
   * A buyer's return (modules/returns): the parcel goes from the buyer (`details.sender`) back to the
   * shop (`details.recipient`); a company with a return product of its own registers it as one.
   */
  returnParcel?: ReturnParcelInfo;
}

export interface ReturnParcelInfo {
  /** The return's code the buyer shows (our return id is in `orderId`'s order). */
  code: string | null;
  /** The delivered order the goods come from, and the number the company registered it under. */
  originalOrderId: number;
  originalTrackNumber: string | null;
}

export interface ShipmentAddress {
  countryCode: string;
  postalCode: string | null;
  city: string;
  region: string | null;
  street: string | null;
  house: string | null;
  flat: string | null;
}

export interface ShipmentDetails {
  /** The shop's own order number (cmsId), else our order id: the company's "order number". */
  number: string;
  recipient: { fullName: string; phone: string; email: string | null };
  address: ShipmentAddress;
  sender: { name: string; phone: string | null; address: ShipmentAddress | null };
  /** The company's own code of the chosen pickup point (imported points), when any. */
  pointCode: string | null;
  /** Our type of that point (1 pickup point, 2 parcel locker, 3 post office); absent: unknown. */
  pointType?: number | null;
  /** Sides of the parcel, cm, longest first (null: unknown); each place's own sides are in `cargo.places`. */
  sidesCm: [number, number, number] | null;
  comment: string | null;
  /**
   * The goods, one line per product: companies print the recipient's cash receipt from them
   * (CDEK `items`, Boxberry `items`). Empty: the order named none.
   */
  goods?: ShipmentGoods[];
  /** The part of `codKopecks` that is the delivery charge the recipient pays (CDEK `delivery_recipient_cost`, Boxberry `delivery_sum`). */
  deliveryCodKopecks?: number;
  /** The tariff the order was priced with (its `delivery.company.tariff`): registration keeps to it where the company names tariffs. */
  tariffName?: string | null;
}

/** One line of goods as a company's order takes it: amounts per unit. */
export interface ShipmentGoods {
  name: string;
  /** The shop's vendor code, else our product id, else the line's position. */
  article: string;
  count: number;
  /** Per unit: what the recipient pays on delivery (0 when prepaid), and the declared value. */
  codKopecks: number;
  declaredKopecks: number;
  /** Per unit; null: unknown. */
  weightGrams: number | null;
  /** VAT percent (0, 10, 20), null: not given. */
  vat: number | null;
}

export interface Registration {
  trackNumber: string;
  trackingUrl: string;
}

/** A registered parcel as its public tracking link names it. */
export interface TrackedParcel {
  companyId: number;
  companyCode: string;
  trackNumber: string;
  accountId: number;
  orderId: number;
}

/**
 * Makes the public tracking page link of a parcel of a built-in company. Injected, because
 * the link is sealed with the instance secret (a track number alone is guessable).
 */
export type TrackingLinkMaker = (parcel: TrackedParcel) => string;

/** How the recipient paid what was collected on delivery. */
export type PaymentMethod = 'cash' | 'card';
export const PAYMENT_METHODS: readonly PaymentMethod[] = ['cash', 'card'];

export interface TrackingEvent {
  trackNumber: string;
  /** Order status code (field-notes.md). */
  statusCode: number;
  at: string;
  description: string;
  /** With a delivery (44, 47): how the recipient paid on delivery, when the company says. */
  paymentMethod?: PaymentMethod;
  /** With 47 (partly delivered): what the recipient bought, per line, and the cash collected when the company says. */
  buyout?: BuyoutReport;
}

/** A partial buyout as a company reports it: lines by position in the order or by the article it was given. */
export interface BuyoutReport {
  lines: Array<{ index?: number; vendorCode?: string; count: number }>;
  /** Kopecks the company collected (CDEK delivery_detail.payment_sum), when it says. */
  collectedKopecks?: number;
}

/** A refusal or failure of a carrier, reported as a message, never a crash of the caller. */
export class CarrierError extends Error {
  constructor(
    readonly companyId: number,
    message: string,
    /** True when asking again later may succeed (unreachable, 5xx); false for a refusal. */
    readonly transient = false,
  ) {
    super(message);
    this.name = 'CarrierError';
  }
}

/** What a company is asked when a sender books its courier (direct shipment) or the consolidated pickup through it. */
export interface PickupRequest {
  /** Our pickup id: asking twice for the same one (a retried job) is the same booking. */
  pickupId: number;
  accountId: number;
  /** 3 consolidated pickup, 4 direct shipment. */
  type: 3 | 4;
  /** `YYYY-MM-DD`, the warehouse's day. */
  date: string;
  /** The warehouse's working hours that day (`HH:MM`): the courier comes within them. */
  hours: { from: string; to: string };
  address: {
    countryCode: string;
    city: string;
    region: string | null;
    street: string;
    house: string | null;
    bulk: string | null;
    flat: string | null;
  };
  contact: { name: string; phone: string };
  weightKg: number;
  countOrders: number;
  comment: string | null;
}

/** A booked pickup: the company's number and the interval its courier comes in (`HH:MM`). */
export interface PickupBooking {
  number: string;
  timeFrom: string;
  timeTo: string;
}

/** Where a booked pickup stands at the company: still to come, collected, or called off by the company. */
export interface PickupProgress {
  state: 'scheduled' | 'done' | 'canceled';
  /** Why the company called it off. */
  message?: string;
}

export interface CarrierDriver {
  /** The contract's `deliveryDriver`. */
  readonly code: string;
  quote(request: QuoteRequest, signal: AbortSignal): Promise<CarrierQuote[]>;
  register(order: ShipmentRequest, signal: AbortSignal): Promise<Registration>;
  cancel(trackNumber: string, signal: AbortSignal): Promise<void>;
  track(trackNumbers: string[], signal: AbortSignal): Promise<TrackingEvent[]>;
  /** Asks for `days` more storage at the point; resolves when granted, a CarrierError when refused. */
  extendHold(trackNumber: string, days: number, signal: AbortSignal): Promise<void>;
  /** Books a courier to collect from a warehouse; a refusal is a CarrierError (not transient). */
  schedulePickup(request: PickupRequest, signal: AbortSignal): Promise<PickupBooking>;
  /** Calls a booked pickup off; a refusal is a CarrierError (not transient). */
  cancelPickup(number: string, signal: AbortSignal): Promise<void>;
  /** Where a booked pickup stands (asked until it is done or called off). */
  pickupProgress(number: string, signal: AbortSignal): Promise<PickupProgress>;
}

/** A pickup point as a real company's directory describes it, ready to become one of ours. */
export interface ImportedPoint {
  /** The company's own code of the point. */
  code: string;
  type: 1 | 2 | 3;
  name: string;
  countryCode: string;
  city: string;
  postalCode: string | null;
  address: string;
  latitude: number;
  longitude: number;
  schedule: Array<{ from: string; to: string } | null>;
  cashPaymentAvailable: boolean;
  cardPaymentAvailable: boolean;
  fittingAvailable: boolean;
  maxWeightGrams: number | null;
  description: string | null;
}

/**
 * A real company's driver, made per account contract: what the simulated companies do, and
 * what only a real one has (checking credentials, its own label, its point directory, its webhook).
 */
export interface ContractDriver extends CarrierDriver {
  /** Resolves when the company accepts the credentials; a CarrierAuthError when it refuses them. */
  checkCredentials(signal: AbortSignal): Promise<void>;
  /** The company's own label PDF of a registered parcel, or null where ours is printed. */
  label(trackNumber: string, signal: AbortSignal): Promise<Buffer | null>;
  /** The company's pickup-point directory. */
  points(signal: AbortSignal): Promise<ImportedPoint[]>;
  /**
   * Asks the company to send its status updates to `url` (where it has webhooks); a url it
   * already sends to is not subscribed twice. Absent where the company has none.
   */
  subscribeStatusWebhook?(url: string, signal: AbortSignal): Promise<void>;
  /**
   * Asks the company to stop sending status updates to `url` (every subscription to it is
   * deleted; none left is done). Absent where the company has no webhooks.
   */
  unsubscribeStatusWebhook?(url: string, signal: AbortSignal): Promise<void>;
}

/** Whether a company's driver is a real company's (a contract's), with its own label, directory and credentials. */
export function isContractDriver(driver: CarrierDriver): driver is ContractDriver {
  return typeof (driver as Partial<ContractDriver>).label === 'function';
}

/** A locality of the directory (modules/localities builds them; drivers place points in them). */
export interface Locality {
  /** GeoNames id */
  id: number;
  countryCode: string;
  name: string;
  nameEn: string;
  /** `г` city, `пгт` urban-type settlement, `с` village (by population; GeoNames does not say) */
  type: string;
  region: string;
  regionCode: string;
  latitude: number;
  longitude: number;
  population: number;
  fias: string | null;
  zip: string | null;
}
