/** A shop's shipping rules (extension): read, replace, versions, revert, explain. */
import type { App } from '../../platform/http.js';
import { errorResponses, IdParams } from '../../platform/schemas.js';
import type { ShopService } from '../shops/service.js';
import type { CalculatorService } from './service.js';
import type { ShippingRuleSets } from './shipping-rule-sets.js';
import { compileRules } from './shipping-rules.js';
import {
  ExplainAnswer,
  ExplainInput,
  RevertInput,
  ShippingRuleSet,
  ShippingRuleVersions,
  ShippingRulesInput,
} from './shipping-rules-schemas.js';

const tags = ['Shops'];

export interface ShippingRuleRouteServices {
  calculator: CalculatorService;
  shops: ShopService;
  shippingRules: ShippingRuleSets;
}

export function shippingRuleRoutes(app: App, services: ShippingRuleRouteServices): void {
  app.get(
    '/v2/shops/:id/shipping-rules',
    {
      schema: {
        operation: { id: 'getShippingRules' },
        tags,
        summary: 'Shipping rules of a shop (extension)',
        description:
          'The current version (0 and no rules when never written). Applied after the widget settings to every calculation that sends applyWidgetSettings: the calculator, the widget, orders.',
        params: IdParams,
        response: { 200: ShippingRuleSet, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.shippingRules.get(request.scope, request.params.id),
  );

  app.put(
    '/v2/shops/:id/shipping-rules',
    {
      schema: {
        operation: { id: 'replaceShippingRules' },
        tags,
        summary: 'Replace the shipping rules of a shop (extension)',
        description:
          'Writes a new version (who and when are kept); remembered calculator answers of the old rules are not served again.',
        params: IdParams,
        body: ShippingRulesInput,
        response: { 200: ShippingRuleSet, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => services.shippingRules.put(request.scope, request.params.id, request.body),
  );

  app.get(
    '/v2/shops/:id/shipping-rules/versions',
    {
      schema: {
        operation: { id: 'listShippingRuleVersions' },
        tags,
        summary: 'Versions of the shipping rules of a shop (extension)',
        description: 'Newest first, the last 200.',
        params: IdParams,
        response: { 200: ShippingRuleVersions, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.shippingRules.versions(request.scope, request.params.id),
  );

  app.post(
    '/v2/shops/:id/shipping-rules/revert',
    {
      schema: {
        operation: { id: 'revertShippingRules' },
        tags,
        summary: 'Restore an earlier version of the shipping rules (extension)',
        description: 'Writes a new version holding the rules of `version`.',
        params: IdParams,
        body: RevertInput,
        response: { 200: ShippingRuleSet, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => services.shippingRules.revert(request.scope, request.params.id, request.body.version),
  );

  app.post(
    '/v2/shops/:id/shipping-rules/explain',
    {
      // changes nothing: a read for key scopes and the audit trail (platform/key-scopes.ts)
      config: { readOnly: true },
      schema: {
        operation: { id: 'explainShippingRules' },
        tags,
        summary: 'Explain the shipping rules on a cart (extension)',
        description:
          "A dry run: a calculator body (the shop's warehouse sends; widget settings apply) and optionally `rules` to try instead of the saved ones. Every offer, hidden ones too, with the rules that matched and each step of its price.",
        params: IdParams,
        body: ExplainInput,
        response: { 200: ExplainAnswer, ...errorResponses(403, 404, 422) },
      },
    },
    async (request) => {
      const shop = await services.shops.get(request.scope, request.params.id);
      const { rules, ...body } = request.body;
      if (rules) services.shippingRules.check(rules);
      return services.calculator.explain(request.scope, shop, body, rules ? compileRules(rules, 0) : undefined);
    },
  );
}
