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
import { shippingRules } from './migrations/0099_shipping_rules.js';
import { ExplainAnswer, ShippingRuleSet } from './shipping-rules-schemas.js';

export const calculatorModule = defineModule<CalculatorRouteServices, CalculatorTables>({
  area: 'calculator',
  purpose: "Delivery prices and terms across companies, and the shops' widget settings and shipping rules.",
  offers: ['calculator', 'widgetSettings', 'shippingRules'],
  dependsOn: ['companies', 'shops', 'kits', 'delivery-methods', 'delivery-promises'],
  migrationHistory: ['0002_carriers'],
  migrations: [shippingRules],
  tags: [{ name: 'Calculator', description: 'Contract 4.12: delivery prices and terms across companies.' }],
  schemas: {
    WidgetSettings,
    DeliveryCompany: DeliveryCompanyResult,
    CalculatorPickupPoint: CalculatorPoint,
    CalculatorResult,
    DeliveringCompanies: CompanyIdsResult,
    ShippingRuleSet,
    ShippingRulesExplained: ExplainAnswer,
  },
  routes: calculatorRoutes,
});

declare module '../../platform/cache.js' {
  interface CacheTopics {
    'shipping-rules': 'a shop’s current shipping rules, compiled for the calculator (calculator/shipping-rule-sets.ts)';
  }
}
