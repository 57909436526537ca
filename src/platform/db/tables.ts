/** Every table the service has; each area declares its own in `modules/<area>/tables.ts`. */
import type { AccountTables } from '../../modules/accounts/tables.js';
import type { BoxTables } from '../../modules/boxes/tables.js';
import type { CalculatorTables } from '../../modules/calculator/tables.js';
import type { DocumentTables } from '../../modules/documents/tables.js';
import type { ReferenceTables } from '../../modules/companies/tables.js';
import type { KitTables } from '../../modules/kits/tables.js';
import type { OrderTables } from '../../modules/orders/tables.js';
import type { ProductTables } from '../../modules/products/tables.js';
import type { ShopTables } from '../../modules/shops/tables.js';
import type { WarehouseTables } from '../../modules/warehouses/tables.js';
import type { EventTables } from '../../modules/events/tables.js';
import type { NotificationTables } from '../../modules/notifications/tables.js';
import type { FulfilmentTables } from '../../modules/fulfilment/tables.js';
import type { MarketplaceTables } from '../../modules/marketplaces/tables.js';
import type { MarketplaceOrderTables } from '../../modules/marketplace-orders/tables.js';
import type { ReportTables } from '../../modules/reports/tables.js';
import type { CarrierIntegrationTables } from '../../modules/carrier-integrations/tables.js';
import type { PickupTables } from '../../modules/pickups/tables.js';
import type { DeliveryMethodTables } from '../../modules/delivery-methods/tables.js';
import type { WebhookTables } from '../../modules/webhooks/tables.js';
import type { WidgetTables } from '../../modules/widget/tables.js';
import type { FileTables } from '../files.js';
import type { JobTables } from '../jobs.js';

export interface Tables extends AccountTables, ShopTables, WarehouseTables, BoxTables, ProductTables, KitTables, ReferenceTables, CalculatorTables, FileTables, JobTables, OrderTables, DocumentTables, EventTables, NotificationTables, FulfilmentTables, PickupTables, MarketplaceTables, MarketplaceOrderTables, ReportTables, DeliveryMethodTables, CarrierIntegrationTables, WebhookTables, WidgetTables {}
