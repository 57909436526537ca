/** The services of every area, wired once per process (and per test app). */
import type { Config } from './config.js';
import type { Database } from './platform/db/database.js';
import { SecretBox } from './platform/crypto.js';
import { AccountService } from './modules/accounts/service.js';
import { AccountStore } from './modules/accounts/store.js';
import { BoxService } from './modules/boxes/service.js';
import { BoxStore } from './modules/boxes/store.js';
import { CountryDirectory } from './modules/lists/countries.js';
import { KitService } from './modules/kits/service.js';
import { KitStore } from './modules/kits/store.js';
import { OrderStatusDirectory } from './modules/lists/order-statuses.js';
import { ProductService } from './modules/products/service.js';
import { ProductStore } from './modules/products/store.js';
import { ShopService } from './modules/shops/service.js';
import { ShopStore } from './modules/shops/store.js';
import { WarehouseService } from './modules/warehouses/service.js';
import { WarehouseStore } from './modules/warehouses/store.js';

export interface Services {
  accounts: AccountService;
  shops: ShopService;
  warehouses: WarehouseService;
  boxes: BoxService;
  products: ProductService;
  kits: KitService;
  orderStatuses: OrderStatusDirectory;
  countries: CountryDirectory;
}

export interface ServiceDeps {
  config: Pick<Config, 'timeZone' | 'loginTokenDays'>;
  database: Database;
  secretBox: SecretBox;
}

export function createServices({ config, database, secretBox }: ServiceDeps): Services {
  const db = database.db;
  const countries = new CountryDirectory();
  const accounts = new AccountService(new AccountStore(db), { timeZone: config.timeZone, loginTokenDays: config.loginTokenDays });
  const warehouses = new WarehouseService(new WarehouseStore(db), countries);
  const shops = new ShopService(new ShopStore(db), warehouses, accounts, secretBox);
  const boxes = new BoxService(new BoxStore(db));
  const products = new ProductService(new ProductStore(db), countries);
  const kits = new KitService(new KitStore(db), shops, products);
  return { accounts, shops, warehouses, boxes, products, kits, orderStatuses: new OrderStatusDirectory(), countries };
}
