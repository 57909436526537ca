/**
 * The MCP tools and resources: each one IS an API operation. A tool's input is the operation's
 * own request schema (operation-schemas.ts) and its call goes through the API itself
 * (operation-call.ts), so validation, rate limits, scope checks and the audit trail are the
 * API's. What is written here is only what a model needs beyond the API document: a name, a
 * sentence on when to use it, and whether it changes or spends anything.
 */
import type { JsonSchema } from './operation-schemas.js';

/** Where a tool's arguments go in the operation's request. */
export type ArgumentsPart = 'body' | 'query' | 'path';

export interface ToolDefinition {
  name: string;
  title: string;
  /** For the model: what it does and when to use it (the operation's summary follows). */
  description: string;
  method: 'GET' | 'POST';
  /** The operation's route pattern (`/v2/orders/:id`), as the key scopes name operations. */
  url: string;
  argumentsGoTo: ArgumentsPart;
  /**
   * reads: readOnlyHint. makes-file: writes a file and nothing else (neither hint; idempotent).
   * changes: makes or spends something (a draft, a registration with a company, a courier): destructiveHint.
   */
  effect: 'reads' | 'makes-file' | 'changes';
  /** Reaches a delivery company's systems (openWorldHint). */
  reachesCompanies: boolean;
  /** Offers `asShopId`, sent as the Shop-Id header. */
  shopHeader: boolean;
  /** Offers `idempotencyKey`, sent as the Idempotency-Key header. */
  idempotencyKey?: boolean;
  /** Tool-only arguments beside the operation's (not sent to the API). */
  extraArguments?: Record<string, JsonSchema>;
  /** Tightens the operation's schema for a model's call (bounds on what one call may ask). */
  narrow?: (schema: JsonSchema) => void;
}

/** Stickers one call may ask for: each is a label in the answer's PDF. */
export const MAX_STICKER_ORDERS = 100;

export const SHOP_ARGUMENT: JsonSchema = {
  type: 'integer',
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description:
    "Sent as the Shop-Id header: the shop to act for (its warehouse sends the parcel, its orders are seen). Omit to use the connection's own Shop-Id, if any.",
};

export const IDEMPOTENCY_ARGUMENT: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description:
    'Sent as the Idempotency-Key header: repeating the call with the same key and arguments within 24 hours answers the first result again instead of doing it twice. Use one when you may retry.',
};

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'price_parcel',
    title: 'Price a parcel',
    description:
      'Prices a delivery with every delivery company of the account: offers by pickup point ("1"), courier ("2") and national post ("3"), each with price, days and company. Give the recipient\'s locality in reception (cityName, or cityFias), the goods (products with weight, dimensions, declared price) and either asShopId (the shop\'s warehouse sends) or sender and pickupType. Writes nothing.',
    method: 'POST',
    url: '/v2/calculator',
    argumentsGoTo: 'body',
    effect: 'reads',
    reachesCompanies: true,
    shopHeader: true,
  },
  {
    name: 'find_pickup_points',
    title: 'Find pickup points',
    description:
      'Lists pickup points (and parcel lockers) of the delivery companies in a locality: filter by cityFias, companyId, types; paged by page and perPage (keep perPage small, at most 100 is plenty). Use it to choose the point of an order delivered to a pickup point.',
    method: 'GET',
    url: '/v2/lists/points',
    argumentsGoTo: 'query',
    effect: 'reads',
    reachesCompanies: false,
    shopHeader: true,
  },
  {
    name: 'create_draft_order',
    title: 'Create a draft order',
    description:
      'Creates an order as a draft, priced but not yet sent to the delivery company (confirm_orders sends it). Needs the recipient, the delivery address, the delivery choice (delivery: company, type and, for pickup points, the point) and the goods. Answers the new order id. Costs nothing until confirmed; use idempotencyKey when you may retry.',
    method: 'POST',
    url: '/v2/orders',
    argumentsGoTo: 'body',
    effect: 'changes',
    reachesCompanies: false,
    shopHeader: true,
    idempotencyKey: true,
  },
  {
    name: 'confirm_orders',
    title: 'Confirm orders',
    description:
      'Confirms draft orders: each is registered with its delivery company (and billed by it). Irreversible once the company has it; ask the person first. Answers nothing when accepted; read the orders again (get_order) to see their status.',
    method: 'POST',
    url: '/v2/orders/confirm',
    argumentsGoTo: 'body',
    effect: 'changes',
    reachesCompanies: true,
    shopHeader: true,
    idempotencyKey: true,
  },
  {
    name: 'get_order',
    title: 'Read an order',
    description: 'Reads one order of the account by its id: status, recipient, delivery, goods, prices, track number.',
    method: 'GET',
    url: '/v2/orders/:id',
    argumentsGoTo: 'path',
    effect: 'reads',
    reachesCompanies: false,
    shopHeader: true,
  },
  {
    name: 'track_order',
    title: 'Track an order',
    description:
      "The tracking record of an order: its statuses with dates as the delivery company reported them. Name the order by id, by the company's trackNumber or by the shop's cmsId.",
    method: 'GET',
    url: '/v2/tracking',
    argumentsGoTo: 'query',
    effect: 'reads',
    reachesCompanies: false,
    shopHeader: true,
  },
  {
    name: 'get_stickers',
    title: 'Get shipping labels',
    description: `Makes the shipping labels (stickers) of confirmed orders, at most ${MAX_STICKER_ORDERS} a call: answers a link to the file (it works without a token until it expires). type 1 is an A4 sheet of four labels, 2 and 3 thermal labels; without type the file is a ZIP of all three. With embedPdf true, a PDF of up to 2 MB also comes back embedded in the answer.`,
    method: 'POST',
    url: '/v2/orders/stickers',
    argumentsGoTo: 'body',
    effect: 'makes-file',
    reachesCompanies: false,
    shopHeader: true,
    extraArguments: {
      embedPdf: {
        type: 'boolean',
        default: false,
        description: 'Also return the PDF itself as an embedded resource (up to 2 MB), not only its link.',
      },
    },
    narrow: (schema) => {
      const ids = (schema.properties as Record<string, JsonSchema> | undefined)?.ids;
      if (ids) {
        ids.maxItems = MAX_STICKER_ORDERS;
        ids.description = `Order ids (at most ${MAX_STICKER_ORDERS} a call)`;
      }
    },
  },
  {
    name: 'pickup_companies',
    title: 'Companies that can collect',
    description:
      'The delivery companies that can collect parcels from a warehouse (type 3 consolidated pickup, 4 direct shipment by the company), with the dates and options each offers. Use it before book_pickup.',
    method: 'GET',
    url: '/v2/pickups/companies',
    argumentsGoTo: 'query',
    effect: 'reads',
    reachesCompanies: false,
    shopHeader: true,
  },
  {
    name: 'book_pickup',
    title: 'Book a pickup',
    description:
      "Books a delivery company's courier to collect parcels from a warehouse on a date (companyId from pickup_companies). The company is asked at once and may charge for it: ask the person first. Answers the pickup's id.",
    method: 'POST',
    url: '/v2/pickups',
    argumentsGoTo: 'body',
    effect: 'changes',
    reachesCompanies: true,
    shopHeader: true,
    idempotencyKey: true,
  },
  {
    name: 'get_product_stock',
    title: "Read a product's stock",
    description:
      'Reads one product of the catalogue by its id, with its stock: quantity, and rests per fulfilment warehouse (what can be shipped now).',
    method: 'GET',
    url: '/v2/products/:id',
    argumentsGoTo: 'path',
    effect: 'reads',
    reachesCompanies: false,
    shopHeader: true,
  },
  {
    name: 'courier_intervals',
    title: 'Courier time intervals',
    description:
      "The time intervals a delivery company's courier offers on a date in a locality (for courier delivery): all the query fields are required.",
    method: 'GET',
    url: '/v2/couriers/schedule',
    argumentsGoTo: 'query',
    effect: 'reads',
    reachesCompanies: false,
    shopHeader: true,
  },
];

export interface ResourceDefinition {
  name: string;
  title: string;
  /** delivery://lists/… */
  uri: string;
  description: string;
  /** The operation that answers it (a GET without required parameters). */
  url: string;
}

export const RESOURCES: readonly ResourceDefinition[] = [
  {
    name: 'order-statuses',
    title: 'Order statuses',
    uri: 'delivery://lists/order-statuses',
    description: 'The order statuses: their numbers and names (an order\'s "status").',
    url: '/v2/lists/order-statuses',
  },
  {
    name: 'delivery-companies',
    title: 'Delivery companies',
    uri: 'delivery://lists/delivery-companies',
    description: 'The delivery companies: their ids (companyId everywhere) and names.',
    url: '/v2/lists/delivery-companies',
  },
  {
    name: 'return-companies',
    title: 'Return companies',
    uri: 'delivery://lists/return-companies',
    description: 'The companies that carry returns.',
    url: '/v2/lists/return-companies',
  },
  {
    name: 'services',
    title: 'Additional services',
    uri: 'delivery://lists/services',
    description: "The additional services an order may ask of its delivery company (an order's services).",
    url: '/v2/lists/services',
  },
];

/** Every operation the tools and resources call, as the catalogue collects them. */
export function operationsCalled(): Set<string> {
  return new Set([
    ...TOOLS.map((tool) => `${tool.method} ${tool.url}`),
    ...RESOURCES.map((resource) => `GET ${resource.url}`),
  ]);
}
