/**
 * The plan of the published OpenAPI document (see platform/openapi.ts): the operationId and
 * the contract section of every operation, so that an endpoint is found from api-v2.md's
 * section 4 tables; the response models published under a name; the headers calls read;
 * and request examples that succeed on a fresh instance (a test replays them in order).
 */
import type { DocumentPlan, ExampleDoc, HeaderDoc, OperationDoc } from './platform/openapi.js';
import { ErrorBody, Created } from './platform/schemas.js';
import { EmployeeView, LoginResponse, SessionView } from './modules/accounts/schemas.js';
import { Box } from './modules/boxes/schemas.js';
import { CalculatorPoint, CalculatorResult, CompanyIdsResult, DeliveryCompanyResult, WidgetSettings } from './modules/calculator/schemas.js';
import { CourierInterval, DeliveryCompanyItem, PointItem, ReturnCompanyItem, ServicesList, ShipmentOption, WarehouseShipment } from './modules/companies/schemas.js';
import { FileResult, PlacesRequired, StickerSet, WaybillSet, WaybillsResult } from './modules/documents/schemas.js';
import { EventSchema } from './modules/events/schemas.js';
import { Kit } from './modules/kits/schemas.js';
import { OrderStatuses } from './modules/lists/schemas.js';
import { NotificationView } from './modules/notifications/schemas.js';
import { DuplicateResult, MissingProducts, Order, PushResult, StatusHistoryItem, TrackingRecord } from './modules/orders/schemas.js';
import { ImportResult, Product } from './modules/products/schemas.js';
import { Supply } from './modules/fulfilment/schemas.js';
import { AgentReport, AnalyticalReport, Bill } from './modules/reports/schemas.js';
import { ApiKeyResponse, Shop } from './modules/shops/schemas.js';
import { Warehouse } from './modules/warehouses/schemas.js';
import { Marketplace, MarketplaceWarehouse } from './modules/marketplaces/schemas.js';
import { MarketplaceOrder } from './modules/marketplace-orders/schemas.js';
import { DeliveryMethod } from './modules/delivery-methods/schemas.js';
import { OWN_METHOD_ID_MAX_LENGTH, OWN_METHOD_ID_PATTERN } from './modules/delivery-methods/rules.js';
import { CarrierIntegration } from './modules/carrier-integrations/schemas.js';
import { AttemptView, CmsCallbacksView, DeliveryView, WebhookSecret, WebhookView } from './modules/webhooks/schemas.js';

const shopIdSchema = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

export const SHOP_ID_HEADER: HeaderDoc = {
  name: 'Shop-Id',
  required: false,
  description: 'A shop of the account. Where the operation needs a shop it selects it; elsewhere it is still checked (an unknown shop or one a shop API key may not reach is refused).',
  schema: shopIdSchema,
};

export const IDEMPOTENCY_KEY_HEADER: HeaderDoc = {
  name: 'Idempotency-Key',
  required: false,
  description:
    'Any string chosen by the caller (a UUID). The first answer is kept 24 hours and replayed for the same key and body; the same key with another body, or while the first request runs, is a 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

const requiredShop = (description: string): HeaderDoc => ({ ...SHOP_ID_HEADER, required: true, description });

/** The point of company 1 (Пунктир) in Санкт-Петербург and its drop-off point in Москва, from the reference data in data/. */
const SPB_POINT_ID = 10000721;
const MOSCOW_DROP_OFF_POINT_ID = 10001485;

const WORKDAY = { from: '09:00', to: '18:00' };

/**
 * A fresh instance's first warehouse and shop get id 1: the order example names shop 1, so
 * the examples run in this order on a new account (the docs page says so).
 */
export const EXAMPLES = {
  warehouse: {
    summary: 'A sender warehouse in Москва',
    description: 'On a fresh instance this is warehouse 1.',
    value: {
      name: 'Склад на Складской',
      type: 1,
      address: { street: 'Складская улица', house: '7', city: { countryCode: 'RU', name: 'Москва', fias: '0c5b2444-70a0-4932-980c-b4dc0d3f02b5', type: 'г', region: 'Москва' } },
      contact: { name: 'Иван Петров', position: 'Кладовщик', phone: '+79161234567' },
      schedule: [WORKDAY, WORKDAY, WORKDAY, WORKDAY, WORKDAY, null, null],
    },
  },
  shop: {
    summary: 'A shop shipping from warehouse 1',
    description: 'On a fresh instance (after the warehouse example) this is shop 1.',
    value: { name: 'Мой магазин', brand: 'МойБренд', warehouse: { id: 1 }, platform: 'woocommerce' },
  },
  calculator: {
    summary: 'Москва to Санкт-Петербург, no shop',
    description: 'Without the Shop-Id header the sender locality and pickupType are given in the body.',
    value: {
      sender: { countryCode: 'RU', cityName: 'Москва' },
      reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
      pickupType: 1,
      products: [{ priceDeclared: 800, priceCod: 900, count: 1, weight: 0.5, dimensions: { width: 15, height: 4, length: 22 } }],
      priceDeclared: 800,
      priceCod: 900,
    },
  },
  order: {
    summary: 'One book to a pickup point in Санкт-Петербург, cash on delivery',
    description: `Shop 1 is the shop of the shop example. Company 1 takes parcels at a drop-off point chosen in advance (pickup.pointId, in Москва where the warehouse is); delivery.point.id is its point in Санкт-Петербург.`,
    value: {
      shopId: 1,
      cmsId: 'SITE-77',
      products: [{ name: 'Книга', vendorCode: 'BOOK-1', priceDeclared: 800, priceCod: 900, count: 1, weight: 0.5, dimensions: { width: 15, height: 4, length: 22 } }],
      deliveryAddress: { city: { countryCode: 'RU', name: 'Санкт-Петербург' }, street: 'Литейный проспект', house: '3' },
      recipient: { fullName: 'Светлана Котова', phone: '+79215556677' },
      delivery: { company: { id: 1 }, type: 1, point: { id: SPB_POINT_ID } },
      pickup: { pointId: MOSCOW_DROP_OFF_POINT_ID },
    },
  },
} satisfies Record<string, ExampleDoc>;

function op(id: string, contract?: string, more: Omit<OperationDoc, 'id' | 'contract'> = {}): OperationDoc {
  return { id, ...(contract ? { contract } : {}), ...more };
}

/** Every operation of the document, by contract section (extensions have none). */
const OPERATIONS: Record<string, OperationDoc> = {
  // service
  'GET /version': op('getVersion'),
  'GET /metrics': op('getMetrics'),
  'GET /health': op('getHealth'),
  'GET /ready': op('getReadiness'),
  'GET /files/{name}': op('downloadFile'),
  'POST /v2/auth/login': op('logIn'),
  'POST /v2/auth/session': op('startDashboardSession'),
  'GET /v2/auth/session': op('getSession'),
  'DELETE /v2/auth/session': op('endSession'),
  // extensions: employees, their roles and shops (issue 31)
  'GET /v2/employees': op('listEmployees'),
  'GET /v2/employees/{id}': op('getEmployee'),
  'POST /v2/employees': op('inviteEmployee'),
  'PUT /v2/employees/{id}': op('changeEmployee'),
  'DELETE /v2/employees/{id}': op('removeEmployee'),
  // 4.1 reference and tracking (the lists also answer POST: PHP plugins send their filters in a form body)
  'GET /v2/lists/services': op('listServices', '4.1'),
  'POST /v2/lists/services': op('listServicesByPost', '4.1'),
  'GET /v2/couriers/schedule': op('listCourierIntervals', '4.1'),
  'GET /v2/lists/delivery-companies': op('listDeliveryCompanies', '4.1'),
  'POST /v2/lists/delivery-companies': op('listDeliveryCompaniesByPost', '4.1'),
  'GET /v2/lists/return-companies': op('listReturnCompanies', '4.1'),
  'POST /v2/lists/return-companies': op('listReturnCompaniesByPost', '4.1'),
  'GET /v2/lists/points': op('listPickupPoints', '4.1'),
  'GET /v2/lists/localities': op('searchLocalities'),
  'POST /v2/lists/points': op('listPickupPointsByPost', '4.1'),
  'GET /v2/lists/order-statuses': op('listOrderStatuses', '4.1'),
  'POST /v2/lists/order-statuses': op('listOrderStatusesByPost', '4.1'),
  'GET /v2/tracking': op('getTrackingRecord', '4.1'),
  'GET /v2/warehouses/shipment': op('listWarehouseShipmentMethods', '4.1'),
  'POST /v2/tracking/events/{companyId}': op('pushTrackingEvents'),
  'GET /track/{company}/{trackNumber}/{seal}': op('getTrackingPage'),
  'GET /track/{company}/{trackNumber}': op('getUnsealedTrackingPage'),
  'GET /site/tracking/{trackNumber}': op('getPublicTrackingStatus'),
  // 4.2 shops
  'GET /v2/shops': op('listShops', '4.2'),
  'GET /v2/shops/{id}': op('getShop', '4.2'),
  'POST /v2/shops': op('createShop', '4.2', { examples: { shop: EXAMPLES.shop } }),
  'PUT /v2/shops/{id}': op('replaceShop', '4.2', { examples: { shop: EXAMPLES.shop } }),
  'DELETE /v2/shops/{id}': op('deleteShop', '4.2'),
  'POST /v2/shops/{id}/api-key': op('replaceShopApiKey'),
  'GET /v2/shops/{id}/widget-settings': op('getWidgetSettings'),
  'PUT /v2/shops/{id}/widget-settings': op('replaceWidgetSettings'),
  // 4.3 warehouses
  'GET /v2/warehouses': op('listWarehouses', '4.3'),
  'GET /v2/warehouses/{id}': op('getWarehouse', '4.3'),
  'POST /v2/warehouses': op('createWarehouse', '4.3', { examples: { warehouse: EXAMPLES.warehouse } }),
  'PUT /v2/warehouses/{id}': op('replaceWarehouse', '4.3', { examples: { warehouse: EXAMPLES.warehouse } }),
  'DELETE /v2/warehouses/{id}': op('deleteWarehouse', '4.3'),
  // 4.4 orders
  'GET /v2/orders': op('listOrders', '4.4'),
  'GET /v2/orders/{id}': op('getOrder', '4.4'),
  'POST /v2/orders': op('createOrder', '4.4', { examples: { order: EXAMPLES.order } }),
  'PUT /v2/orders/{id}': op('replaceOrder', '4.4', { examples: { order: EXAMPLES.order } }),
  'PATCH /v2/orders/{id}': op('patchOrder', '4.4'),
  'POST /v2/orders/confirm': op('confirmOrders', '4.4'),
  'POST /v2/orders/check-rests': op('checkOrderRests', '4.4'),
  'POST /v2/orders/cancel': op('cancelOrders', '4.4'),
  'POST /v2/orders/duplicate': op('duplicateOrders', '4.4'),
  'POST /v2/orders/duplicate-back': op('duplicateOrdersBack', '4.4'),
  'POST /v2/orders/return': op('returnOrders', '4.4'),
  'POST /v2/orders/extend-hold': op('extendOrderHold', '4.4'),
  'POST /v2/orders/pack': op('packOrders', '4.4'),
  'POST /v2/orders/unpack': op('unpackOrders', '4.4'),
  'GET /v2/orders/shipment': op('listOrderShipmentOptions', '4.4'),
  'PUT /v2/orders/reservation/{id}': op('reserveOrder', '4.4'),
  'PUT /v2/orders/reservation-cancel/{id}': op('cancelOrderReservation', '4.4'),
  // 4.5 documents
  'GET /v2/orders/waybills': op('listWaybills', '4.5'),
  'POST /v2/orders/waybills': op('createWaybills', '4.5'),
  'POST /v2/orders/waybills/check-places-required': op('checkWaybillPlacesRequired', '4.5'),
  'POST /v2/orders/act-assembly': op('createAssemblyStatement', '4.5'),
  'GET /v2/orders/stickers': op('listStickers', '4.5'),
  'POST /v2/orders/stickers': op('createStickers', '4.5'),
  // extension: a warehouse's label printer (issue 32: zpl and png stickers at its resolution)
  'GET /v2/warehouses/{id}/label-printer': op('getWarehouseLabelPrinter'),
  'PUT /v2/warehouses/{id}/label-printer': op('setWarehouseLabelPrinter'),
  'POST /v2/products/shipments/{id}/labels': op('createSupplyProductLabels'),
  'POST /v2/pickups/{id}/act-labels': op('createPickupActLabels'),
  // 4.6 products
  'GET /v2/products': op('listProducts', '4.6'),
  'GET /v2/products/{id}': op('getProduct', '4.6'),
  'POST /v2/products': op('createProduct', '4.6'),
  'PUT /v2/products/{id}': op('replaceProduct', '4.6'),
  'PATCH /v2/products/{id}': op('patchProduct', '4.6'),
  'DELETE /v2/products/{id}': op('deleteProduct', '4.6'),
  'POST /v2/products/import': op('importProducts', '4.6'),
  'GET /v2/products/import/template': op('getProductImportTemplate'),
  // 4.7 kits and boxes
  'GET /v2/kits': op('listKits', '4.7'),
  'GET /v2/kits/{id}': op('getKit', '4.7'),
  'POST /v2/kits': op('createKit', '4.7'),
  'PUT /v2/kits/{id}': op('replaceKit', '4.7'),
  'DELETE /v2/kits/{id}': op('deleteKit', '4.7'),
  'GET /v2/boxes': op('listBoxes', '4.7'),
  'GET /v2/boxes/{id}': op('getBox', '4.7'),
  'POST /v2/boxes': op('createBox', '4.7'),
  'PUT /v2/boxes/{id}': op('replaceBox', '4.7'),
  'PATCH /v2/boxes/{id}': op('patchBox', '4.7'),
  'DELETE /v2/boxes/{id}': op('deleteBox', '4.7'),
  // 4.11 fulfilment supplies, and the warehouse staff's side (extension)
  'GET /v2/products/shipments': op('listSupplies', '4.11'),
  'POST /v2/products/shipments': op('createSupply', '4.11'),
  'DELETE /v2/products/shipments': op('deleteSupply', '4.11'),
  'GET /v2/products/shipments/{id}': op('getSupply'),
  'POST /v2/products/shipments/confirm': op('confirmSupply', '4.11'),
  'POST /v2/products/movement-report': op('createMovementReport', '4.5'),
  // 4.10 pickups
  'GET /v2/pickups': op('listPickups', '4.10'),
  'GET /v2/pickups/companies': op('listPickupCompanies', '4.10'),
  'GET /v2/pickups/{id}': op('getPickup'),
  'POST /v2/pickups': op('createPickup', '4.10'),
  'POST /v2/pickups/cancel': op('cancelPickup', '4.10'),
  // 4.8 reports
  'GET /v2/reports/bill': op('listBills', '4.8'),
  'GET /v2/reports/agent': op('listAgentReports', '4.8'),
  'PUT /v2/reports/agent-accept/{id}': op('acceptAgentReport', '4.8'),
  'GET /v2/reports/analytical': op('listAnalyticalReports', '4.8'),
  'POST /v2/reports/analytical': op('createAnalyticalReport', '4.8'),
  'POST /v2/operator/bills/{id}/payments': op('recordBillPayment'),
  'GET /v2/fulfilment/operator/supplies': op('listSuppliesAtWarehouse'),
  'POST /v2/fulfilment/operator/supplies/{id}/arrived': op('markSupplyArrived'),
  'POST /v2/fulfilment/operator/supplies/{id}/accepted': op('acceptSupply'),
  // 4.9 marketplaces and marketplace orders
  'GET /v2/marketplaces': op('listMarketplaces', '4.9'),
  'GET /v2/marketplaces/warehouses': op('listMarketplaceWarehouses', '4.9'),
  'POST /v2/marketplaces/integration/{id}': op('connectMarketplace', '4.9'),
  'POST /v2/marketplaces/settings/{id}': op('saveMarketplaceSettings', '4.9'),
  'DELETE /v2/marketplaces/integration/{id}': op('disconnectMarketplace'),
  'GET /v2/marketplace-orders': op('listMarketplaceOrders', '4.9'),
  'GET /v2/marketplace-orders/{id}': op('getMarketplaceOrder', '4.9'),
  'GET /v2/marketplace-orders/bundles': op('listMarketplaceOrderBundle', '4.9'),
  // 4.12 calculator
  'POST /v2/calculator': op('calculateDelivery', '4.12', { examples: { calculator: EXAMPLES.calculator } }),
  'POST /v2/calculator/one': op('calculateDeliveryByCompany', '4.12', {
    headers: [
      requiredShop('The shop whose warehouse sends the parcel.'),
      { name: 'Type', required: true, description: 'Delivery type: 1 pickup point, 2 courier, 3 national post.', schema: { type: 'integer', enum: [1, 2, 3] } },
      {
        name: 'Company-Id',
        required: true,
        description: "The delivery company to calculate (GET /v2/lists/delivery-companies), or an own delivery method as '{accountId}_{methodId}' (GET /v2/delivery-methods).",
        schema: { anyOf: [{ type: 'integer', minimum: 1, maximum: 999_999_999 }, { type: 'string', pattern: OWN_METHOD_ID_PATTERN, maxLength: OWN_METHOD_ID_MAX_LENGTH }] },
      },
    ],
  }),
  'POST /v2/calculator/company': op('listDeliveringCompanies', '4.12', { headers: [requiredShop('The shop whose widget settings and warehouse apply.')] }),
  // extensions: an account's own delivery methods (issue 18; ids of convention 12)
  'GET /v2/delivery-methods': op('listOwnDeliveryMethods'),
  'GET /v2/delivery-methods/{id}': op('getOwnDeliveryMethod'),
  'POST /v2/delivery-methods': op('createOwnDeliveryMethod'),
  'PUT /v2/delivery-methods/{id}': op('replaceOwnDeliveryMethod'),
  'DELETE /v2/delivery-methods/{id}': op('deleteOwnDeliveryMethod'),
  'POST /v2/orders/status/{id}': op('setOwnDeliveryOrderStatus'),
  // extensions: events and notifications (DESIGN.md)
  'GET /v2/events': op('listEvents'),
  'GET /v2/notifications': op('listNotifications'),
  'POST /v2/notifications/read': op('markNotificationsRead'),
  // extensions: the account's own contracts with real delivery companies (issue 18)
  'GET /v2/carrier-integrations': op('listCarrierIntegrations'),
  'POST /v2/carrier-integrations/{companyId}': op('connectCarrierIntegration'),
  'DELETE /v2/carrier-integrations/{companyId}': op('disconnectCarrierIntegration'),
  'POST /v2/carrier-webhooks/{company}/{token}': op('receiveCarrierWebhook'),
  // the sandbox (extension)
  'POST /v2/sandbox/billing-period/close': op('closeSandboxBillingPeriod'),
  'POST /v2/sandbox/pickups/{id}/collect': op('collectSandboxPickup'),
  'POST /v2/sandbox/orders/{id}/advance': op('advanceSandboxOrder'),
  // extensions: webhooks and the shop plugins' CMS callbacks (issue 28)
  'POST /v2/webhooks': op('createWebhook'),
  'GET /v2/webhooks': op('listWebhooks'),
  'GET /v2/webhooks/{id}': op('getWebhook'),
  'PUT /v2/webhooks/{id}': op('replaceWebhook'),
  'DELETE /v2/webhooks/{id}': op('deleteWebhook'),
  'POST /v2/webhooks/{id}/rotate-secret': op('rotateWebhookSecret'),
  'POST /v2/webhooks/{id}/test': op('sendWebhookTest'),
  'GET /v2/webhooks/{id}/deliveries': op('listWebhookDeliveries'),
  'GET /v2/webhooks/{id}/attempts': op('listWebhookAttempts'),
  'POST /v2/webhooks/{id}/deliveries/{deliveryId}/redeliver': op('redeliverWebhookDelivery'),
  'GET /v2/shops/{id}/cms-callbacks': op('getCmsCallbacks'),
  'PUT /v2/shops/{id}/cms-callbacks': op('setCmsCallbacks'),
  'DELETE /v2/shops/{id}/cms-callbacks': op('deleteCmsCallbacks'),
  'GET /v2/shops/{id}/cms-callbacks/options': op('readCmsOptions'),
  'POST /v2/shops/{id}/widget-key': op('issueWidgetKey'),
  'GET /v2/shops/{id}/widget-key': op('getWidgetKey'),
  'POST /v2/widget/orders': op('createOrderFromWidgetSelection'),
  'POST /v2/widgets/update-order': op('updateWidgetEraOrder'),
  'POST /v2/widgets/confirm-order': op('confirmWidgetEraOrder'),
  'GET /widget/v1/widget.js': op('getWidgetScript'),
  'GET /widget/v1/saferoute-compat.js': op('getWidgetEraCompatibilityScript'),
  'GET /widget/v1/manifest.json': op('getWidgetManifest'),
  'GET /widget/v1/{file}': op('getVersionedWidgetFile'),
  'GET /widget/v1/api/localities': op('searchWidgetLocalities'),
  'GET /widget/v1/api/points': op('listWidgetPoints'),
  'POST /widget/v1/api/quotes': op('quoteWidgetCart'),
  'POST /widget/v1/api/selections': op('createWidgetSelection'),
};

export const API_DOCUMENT_PLAN: DocumentPlan = {
  operations: OPERATIONS,
  schemas: {
    Error: ErrorBody,
    Created,
    Order,
    OrderStatusChange: StatusHistoryItem,
    TrackingRecord,
    MissingProducts,
    DuplicatedOrders: DuplicateResult,
    Product,
    ProductImportResult: ImportResult,
    Supply,
    Marketplace,
    MarketplaceWarehouse,
    MarketplaceOrder,
    Bill,
    AgentReport,
    AnalyticalReport,
    CarrierIntegration,
    Shop,
    ShopApiKey: ApiKeyResponse,
    WidgetSettings,
    Warehouse,
    Box,
    Kit,
    DeliveryCompany: DeliveryCompanyResult,
    CalculatorPickupPoint: CalculatorPoint,
    CalculatorResult,
    DeliveringCompanies: CompanyIdsResult,
    ServicesList,
    DeliveryCompanyListItem: DeliveryCompanyItem,
    ReturnCompanyListItem: ReturnCompanyItem,
    PickupPoint: PointItem,
    CourierInterval,
    OrderStatuses,
    WarehouseShipmentMethods: WarehouseShipment,
    ShipmentOption,
    FileResult,
    StickerSet,
    WaybillSet,
    WaybillsResult,
    PlacesRequired,
    Event: EventSchema,
    Notification: NotificationView,
    Webhook: WebhookView,
    WebhookSecret,
    WebhookDelivery: DeliveryView,
    WebhookAttempt: AttemptView,
    CmsCallbacks: CmsCallbacksView,
    PushResult,
    LoginResult: LoginResponse,
    SessionView,
    Employee: EmployeeView,
    DeliveryMethod,
  },
  everyCall: [SHOP_ID_HEADER],
  everyPost: [IDEMPOTENCY_KEY_HEADER],
  // DESIGN.md section 5
  statuses: {
    '400': 'Bad input: errors[] names each field ({field, message}).',
    '401': 'No token, or a token that is unknown, revoked or expired.',
    '403': 'A shop API key reaching outside its shop.',
    '404': "Not found (a record of another account is not found either). Batch operations list each missing id in errors[] ({id, message}).",
    '409': 'Conflict: the state does not allow it (errors[] lists each refused id in batch operations), a duplicate, or an Idempotency-Key reused with another body or still running.',
    '413': 'The body is too large.',
    '422': 'A business rule refuses it (e.g. a delivery that cannot be priced, an import over 2000 rows).',
    '503': 'The service is stopping or its database does not answer: retry later.',
  },
  everyResponseHeaders: {
    'x-log-id': { description: 'The log id of this request: quote it to support (also logId in error bodies).', schema: { type: 'string' } },
    'x-request-id': { description: "The caller's X-Request-Id when it is a safe token (letters, digits, ._:=+/-, up to 128), else the log id.", schema: { type: 'string' } },
  },
  everyV2Response: { '429': 'Too many requests for this token (or address) this minute: retry after the Retry-After header.' },
  tags: [
    { name: 'Employees (extension)', description: 'Extension (issue 31): owners invite employees as owners or shop managers; a manager sees only the shops given to them, each request acting for one of them (the Shop-Id header, default the first), as that shop\'s API key would.' },
    { name: 'Service', description: 'Health, readiness, version and metrics of the process (extensions).' },
    { name: 'Authentication', description: 'Employee login (extension; contract 5 leaves credentials open). Send the header `Authorization: Bearer YOUR_TOKEN` (the token from the first start, the CLI or POST /v2/auth/login).' },
    { name: 'Reference lists', description: 'Contract 4.1: services, delivery and return companies, pickup points, courier intervals, order statuses.' },
    { name: 'Tracking', description: 'Contract 4.1 (GET /v2/tracking); extensions: the recipient tracking page and the delivery companies\' status push.' },
    { name: 'Shops', description: 'Contract 4.2; extensions: API key rotation and widget settings.' },
    { name: 'Warehouses', description: 'Contract 4.3, and shipment methods from a place (4.1).' },
    { name: 'Orders', description: 'Contract 4.4: orders, their batch operations, reservation and shipment options.' },
    { name: 'Documents', description: 'Contract 4.5: stickers, waybills and handover acts, assembly statements.' },
    { name: 'Products', description: 'Contract 4.6: products and their xlsx import.' },
    { name: 'Kits', description: 'Contract 4.7: kits of products.' },
    { name: 'Boxes', description: 'Contract 4.7: parcel boxes.' },
    { name: 'Pickups', description: 'Contract 4.10: couriers booked to collect a warehouse\'s prepared orders (consolidated pickup or direct shipment), their status and handover act.' },
    { name: 'Fulfilment supplies', description: 'Contract 4.11: supplies of goods to the fulfilment warehouses of the service, their acts and statuses.' },
    { name: 'Fulfilment warehouse staff (extension)', description: 'Extension: the staff of a fulfilment warehouse mark supplies arrived and accepted, with the counted goods (operator tokens from the CLI).' },
    { name: 'Marketplaces', description: 'Contract 4.9: marketplaces, the account\'s integrations with them, their warehouses and the orders read from them.' },
    { name: 'Reports', description: 'Contract 4.8: bills and agent reports of each billing period, analytical reports (xlsx).' },
    { name: 'Billing operators (extension)', description: 'Extension: the service\'s billing operators record payments of bills (operator tokens of the billing scope, from the CLI).' },
    { name: 'Delivery methods', description: "Extension: the account's own delivery methods (the shop delivers itself); their ids '{accountId}_{methodId}' (convention 12) are company ids in the calculator, orders, lists and documents." },
    { name: 'Delivery company contracts (extension)', description: 'Extension: an account connects its own contract with a real delivery company (CDEK, Boxberry, Russian Post, Yandex Delivery); without one it ships with the simulated companies (the sandbox).' },
    { name: 'Sandbox (extension)', description: 'Extension: for an account testing against the simulated companies, what would take days runs now: close the billing period, have a pickup collected, move an order one status. Refused for accounts with a live contract.' },
    { name: 'Checkout widget', description: "Extension: the shop's publishable widget key, the calls the checkout widget makes from a shop's page under /widget/v1/api/ (the key in `key`, CORS by the key's origins, prices from the shop's widget settings) and the shop server's confirm of a buyer's selection." },
    { name: 'Calculator', description: 'Contract 4.12: delivery prices and terms across companies.' },
    { name: 'Files', description: 'Generated files (labels, acts, reports) behind the signed URLs the API answers (extension).' },
    { name: 'Events', description: 'Order events after a cursor (extension; contract 6 leaves delivery open).' },
    { name: 'Notifications', description: 'Notifications of the caller (extension; contract 6).' },
    { name: 'Webhooks', description: "Extension: order events pushed to the account's endpoints (Standard Webhooks signatures), and the old shop plugins' CMS callbacks (order-status-update, product-quantity-update)." },
  ],
};
