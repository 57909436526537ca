/** modules/companies, the area definition (src/modules.ts lists it): Reference data: delivery companies, their points, services and courier intervals (contract 4.1 lists). */
import { defineModule } from '../../platform/module.js';
import { importedPointsIndex } from './migrations/0081_imported_points_index.js';
import { deliveryCompanyRoutes, type CompaniesRouteServices } from './routes.js';
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
  purpose: 'Reference data: delivery companies, their points, services and courier intervals (contract 4.1 lists).',
  offers: ['reference', 'deliveryCompanies'],
  dependsOn: ['shops', 'carrier-integrations'],
  migrationHistory: ['0002_carriers', '0018_carrier_points'],
  migrations: [importedPointsIndex],
  tags: [
    {
      name: 'Reference lists',
      description:
        'Contract 4.1: services, delivery and return companies, pickup points, courier intervals, order statuses.',
    },
  ],
  schemas: {
    ServicesList,
    DeliveryCompanyListItem: DeliveryCompanyItem,
    ReturnCompanyListItem: ReturnCompanyItem,
    PickupPoint: PointItem,
    CourierInterval,
    WarehouseShipmentMethods: WarehouseShipment,
    ShipmentOption,
  },
  routes: deliveryCompanyRoutes,
  hourly: (services) => ({ 'imported points reload': () => services.reference.reloadImportedPoints() }),
});
