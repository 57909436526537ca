/**
 * The account's own delivery methods in a calculation: priced by their own
 * brackets, no remote call, no commissions. Pure.
 */
import type { DeliveryType } from '../../carriers/types.js';
import { toRoubles } from '../../platform/money.js';
import {
  OWN_DRIVER,
  ownMethodId,
  pointsNear,
  priceKopecksOf,
  serves,
  type ExactPlaces,
  type OwnMethod,
} from '../delivery-methods/rules.js';
import {
  OWN_HOLD_DAYS,
  placeOf,
  presentOwnPoint,
  priceRulesOf,
  type CompanyOption,
  type Context,
  type PointDates,
  type TracedOffer,
} from './present.js';
import { applyPriceRules } from './rules.js';
import { evaluateUnit, marksOf, renamed } from './option-rules.js';
import type { OfferOutcome } from './shipping-rules.js';
import type { DeliveryCompanyResult } from './schemas.js';

/**
 * The account's own methods that serve the recipient: priced by their brackets (the
 * parcel's actual weight, the order sum as widget rules count it), no commissions (the shop
 * collects payment itself), no remote call.
 */
export function ownOptions(
  methods: OwnMethod[],
  context: Context,
  type: DeliveryType | undefined,
  wantedIds: Array<number | string> | undefined,
  dates: (days: { min: number; max: number }) => PointDates,
  /** Where the register placed both houses (an order's courier address and its warehouse): the radius is measured between them. */
  exact: ExactPlaces | null = null,
): CompanyOption[] {
  const options: CompanyOption[] = [];
  const onDelivery = context.money.codKopecks + context.money.clientPriceKopecks;
  for (const method of methods) {
    const id = ownMethodId(method.accountId, method.id);
    if (wantedIds && !wantedIds.includes(id)) continue;
    if (type !== undefined && method.type !== type) continue;
    // own methods offer no additional services
    if (context.required.size > 0) continue;
    if (onDelivery > 0 && !method.cashPaymentAvailable && !method.cardPaymentAvailable) continue;
    if (!serves(method, placeOf(context.recipient), placeOf(context.sender), exact)) continue;
    const net = priceKopecksOf(method, context.cargo.weightGrams, context.orderKopecks);
    if (net === null) continue;
    let methodDates = dates(method.days);
    let total: number;
    let outcome: OfferOutcome | null = null;
    let traced: TracedOffer | null = null;
    if (context.rules) {
      ({ outcome, traced } = evaluateUnit(
        context,
        {
          type: method.type,
          companyId: id,
          tariffName: null,
          pointKind: method.type === 1 ? 1 : null,
          daysMax: methodDates.deliveryDays.max,
          // the shop collects payment itself: no company insures it
          insuranceKopecks: 0,
        },
        net,
        { companyName: method.name, isFar: false, deliveryDays: methodDates.deliveryDays },
      ));
      if (outcome.hiddenBy !== null) continue;
      total = outcome.priceKopecks;
      if (outcome.addDays > 0)
        methodDates = dates({ min: method.days.min + outcome.addDays, max: method.days.max + outcome.addDays });
    } else
      total = context.widget
        ? applyPriceRules(net, priceRulesOf(context.widget), {
            type: method.type,
            companyId: 0,
            orderKopecks: context.orderKopecks,
          })
        : net;
    const company: DeliveryCompanyResult = {
      deliveryCompanyId: id,
      deliveryCompanyName: method.name,
      deliveryCompanyLogo: null,
      tariffName: null,
      pickupCompanyId: id,
      deliveryDriver: OWN_DRIVER,
      deliveryDays: methodDates.deliveryDays,
      deliveryPlanDays: method.days,
      deliveryDate: methodDates.deliveryDate,
      services: {},
      priceCommissionDeclared: 0,
      percentCommissionDeclared: 0,
      priceCommissionCod: 0,
      percentCommissionCod: 0,
      priceCommissionCodCard: 0,
      percentCommissionCodCard: 0,
      priceCommissionAcquiring: 0,
      percentCommissionAcquiring: 0,
      isPost: method.type === 3,
      specificity: [],
    };
    const marks = outcome ? marksOf(outcome, traced ? [traced] : []) : undefined;
    if (outcome) renamed(company, outcome);
    if (method.type === 1) {
      const near = pointsNear(method, context.recipient);
      if (near.length === 0) continue;
      company.points = context.hidePointFullInfo
        ? near.map((point) => point.id)
        : near.map((point) => presentOwnPoint(point, method, company, net, total));
      options.push({
        company,
        points: null,
        holdDays: OWN_HOLD_DAYS,
        idsOnly: context.hidePointFullInfo,
        ownTotalKopecks: total,
        ...(marks ? { marks } : {}),
      });
      continue;
    }
    company.cashPaymentAvailable = method.cashPaymentAvailable;
    company.cardPaymentAvailable = method.cardPaymentAvailable;
    company.priceDelivery = toRoubles(net);
    company.totalPrice = toRoubles(total);
    if (method.type === 2) {
      company.isExpress = false;
      company.timeSelectAvailable = false;
    }
    options.push({
      company,
      points: null,
      holdDays: 0,
      idsOnly: false,
      ownTotalKopecks: total,
      ...(marks ? { marks } : {}),
    });
  }
  return options;
}
