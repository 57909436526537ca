/** modules/calculator, the area definition (src/modules.ts lists it): Delivery prices and terms across companies, and the shops' widget settings. */
import { defineModule } from '../../platform/module.js';
import { calculatorRoutes, type CalculatorRouteServices } from './routes.js';
import {
  CalculatorPoint,
  CalculatorResult,
  CompanyIdsResult,
  DeliveryCompanyResult,
  WidgetSettings,
} from './schemas.js';
import type { CalculatorTables } from './tables.js';

export const calculatorModule = defineModule<CalculatorRouteServices, CalculatorTables>({
  area: 'calculator',
  purpose: "Delivery prices and terms across companies, and the shops' widget settings.",
  offers: ['calculator', 'widgetSettings'],
  dependsOn: ['companies', 'shops', 'kits', 'delivery-methods'],
  migrationHistory: ['0002_carriers'],
  tags: [{ name: 'Calculator', description: 'Contract 4.12: delivery prices and terms across companies.' }],
  schemas: {
    WidgetSettings,
    DeliveryCompany: DeliveryCompanyResult,
    CalculatorPickupPoint: CalculatorPoint,
    CalculatorResult,
    DeliveringCompanies: CompanyIdsResult,
  },
  routes: calculatorRoutes,
});
