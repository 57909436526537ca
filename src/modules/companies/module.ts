/** modules/companies, the area definition (src/modules.ts lists it): The delivery companies' reference data (cards, points, services, courier intervals, shipment methods) and the reads of it that the lists, warehouses, orders and pickups areas answer with; the companies' logos. */
import { defineModule } from '../../platform/module.js';
import { importedPointsIndex } from './migrations/0081_imported_points_index.js';
import { companyLogoRoutes, type CompaniesRouteServices } from './routes.js';
import {
  CourierInterval,
  DeliveryCompanyItem,
  PointItem,
  ReturnCompanyItem,
  ServicesList,
  ShipmentOption,
  WarehouseShipment,
} from './schemas.js';
import type { ReferenceTables } from './tables.js';

export const companiesModule = defineModule<CompaniesRouteServices, ReferenceTables>({
  area: 'companies',
  purpose:
    "The delivery companies' reference data (cards, points, services, courier intervals, shipment methods) and the reads of it that the lists, warehouses, orders and pickups areas answer with; the companies' logos.",
  offers: ['reference', 'deliveryCompanies'],
  dependsOn: ['shops', 'carrier-integrations'],
  migrationHistory: ['0002_carriers', '0018_carrier_points'],
  migrations: [importedPointsIndex],
  // the models of DeliveryCompanyService's answers, defined beside it; the routes that answer with them are other areas'
  schemas: {
    ServicesList,
    DeliveryCompanyListItem: DeliveryCompanyItem,
    ReturnCompanyListItem: ReturnCompanyItem,
    PickupPoint: PointItem,
    CourierInterval,
    WarehouseShipmentMethods: WarehouseShipment,
    ShipmentOption,
  },
  routes: companyLogoRoutes,
  hourly: (services) => ({ 'imported points reload': () => services.reference.reloadImportedPoints() }),
});
