/**
 * A company's quote made the option the buyer sees: the services shown and required, the
 * commissions, the shop's price rules, the delivery dates in working days, and for pickup the
 * points offered (those of the recipient's locality that take the parcel, else the nearest far
 * ones, each kind of point priced once). Apart from service.ts, which asks the companies and
 * collects their answers, because this is the per-answer pricing every quote goes through;
 * it reads only the reference data and keeps the working-day calendar of each day.
 */
import { distanceKm } from '../../carriers/geo.js';
import type { DeliveryPoint } from '../../carriers/points.js';
import type { RegisteredCompany } from '../../carriers/registry.js';
import { commissionKopecks, scaled } from '../../carriers/tariff/pricing.js';
import type { CarrierQuote } from '../../carriers/types.js';
import { toRoubles } from '../../platform/money.js';
import type { ReferenceData } from '../companies/reference.js';
import type { DeliveryPromiseService } from '../delivery-promises/service.js';
import {
  pointTakes,
  priceRulesOf,
  type CompanyOption,
  type Context,
  type PointDates,
  type PointOption,
  type PointPrice,
} from './present.js';
import { addWorkingDays, applyPriceRules, calendarDaysBetween, commissionsOf, totalKopecks } from './rules.js';
import type { DeliveryCompanyResult } from './schemas.js';
import { evaluateUnit, marksOf, renamed } from './option-rules.js';
import { untouchedOutcome, type OfferFacts, type OfferOutcome } from './shipping-rules.js';
import type { TracedOffer } from './present.js';

/** isFar: how many of a company's nearest points to offer, and how far to look. */
const FAR_POINTS = 5;
const FAR_WITHIN_KM = 150;
/** A far point is reached through the network's nearest hub: a working day more. */
const FAR_EXTRA_DAYS = 1;

const shifted = (days: { min: number; max: number }, more: number) => ({ min: days.min + more, max: days.max + more });

/** The marks of an option every point of which the rules hid (it is not answered; explain still lists its points). */
const NO_OUTCOME: OfferOutcome = untouchedOutcome(0);

export class OptionPricing {
  private readonly workingDays = new Map<string, Array<{ date: string; calendarDays: number }>>();

  constructor(
    private readonly reference: ReferenceData,
    /** Delivery promises (modules/delivery-promises); absent: the options carry none. */
    private readonly promises?: Pick<DeliveryPromiseService, 'promiseFor'>,
  ) {}

  /** A company's quote of one type as the option the buyer sees; null when it cannot take this call (a required service, payment on delivery, no point). */
  present(entry: RegisteredCompany, quote: CarrierQuote, context: Context, onlyPointId?: number): CompanyOption | null {
    const { company, driver } = entry;
    const offered = new Map(quote.services.map((service) => [service.id, service.priceKopecks]));
    for (const id of context.required) if (!offered.has(id)) return null;

    const services: DeliveryCompanyResult['services'] = {};
    let requiredKopecks = 0;
    for (const id of new Set([...context.shown, ...context.required])) {
      const price = offered.get(id);
      if (price === undefined) continue;
      const required = context.required.has(id);
      if (required) requiredKopecks += price;
      services[String(id)] = { id, name: this.serviceName(id), price: toRoubles(price), checked: true, required };
    }

    const cashAvailable = company.cashPaymentAvailable ?? true;
    const cardAvailable = company.cardPaymentAvailable ?? true;
    if (context.money.codKopecks > 0 && !cashAvailable && !cardAvailable) return null;
    const commissions = commissionsOf(quote, context.money);
    const dates = this.dates(context, quote.days);
    const customerPrice = (kopecks: number) =>
      context.widget
        ? applyPriceRules(kopecks, priceRulesOf(context.widget), {
            type: quote.type,
            companyId: company.id,
            orderKopecks: context.orderKopecks,
          })
        : kopecks;

    const base: DeliveryCompanyResult = {
      deliveryCompanyId: company.id,
      deliveryCompanyName: company.name,
      deliveryCompanyLogo: company.logo,
      tariffName: quote.tariffName,
      pickupCompanyId: company.id,
      deliveryDriver: driver.code,
      deliveryDays: dates.deliveryDays,
      deliveryPlanDays: quote.days,
      deliveryDate: dates.deliveryDate,
      services,
      priceCommissionDeclared: toRoubles(commissions.declared),
      percentCommissionDeclared: quote.commissions.declared.percent,
      priceCommissionCod: toRoubles(commissions.codCash),
      percentCommissionCod: quote.commissions.codCash.percent,
      priceCommissionCodCard: toRoubles(commissions.codCard),
      percentCommissionCodCard: quote.commissions.codCard.percent,
      priceCommissionAcquiring: toRoubles(commissions.acquiring),
      percentCommissionAcquiring: quote.commissions.acquiring.percent,
      isPost: company.isPost === true,
      specificity: [],
    };

    // the shop's shipping rules (with its widget settings compiled first), per offer: see option-rules.ts
    const rules = context.rules;
    const offerOf = (pointKind: number | null, daysMax: number): OfferFacts => ({
      type: quote.type,
      companyId: company.id,
      tariffName: quote.tariffName,
      pointKind,
      daysMax,
      // what insuring the cart's value would add, when the call did not insure it (calcDeclared false, a smaller declared value)
      insuranceKopecks:
        context.orderKopecks > 0
          ? Math.max(0, commissionKopecks(context.orderKopecks, quote.commissions.declared) - commissions.declared)
          : 0,
    });

    if (quote.type !== 1) {
      base.cashPaymentAvailable = cashAvailable;
      base.cardPaymentAvailable = cardAvailable;
      base.priceDelivery = toRoubles(quote.priceDeliveryKopecks);
      const before = totalKopecks(quote.priceDeliveryKopecks, requiredKopecks, commissions, cashAvailable);
      let marks: CompanyOption['marks'];
      let addedDays = 0;
      if (rules) {
        const { outcome, traced } = evaluateUnit(context, offerOf(null, dates.deliveryDays.max), before, {
          companyName: company.name,
          isFar: false,
          deliveryDays: dates.deliveryDays,
        });
        if (outcome.hiddenBy !== null) return null;
        base.totalPrice = toRoubles(outcome.priceKopecks);
        if (outcome.addDays > 0) Object.assign(base, this.dates(context, shifted(quote.days, outcome.addDays)));
        addedDays = outcome.addDays;
        renamed(base, outcome);
        marks = marksOf(outcome, traced ? [traced] : []);
      } else base.totalPrice = toRoubles(customerPrice(before));
      if (quote.type === 2) {
        base.isExpress = company.isExpress === true;
        base.timeSelectAvailable = company.timeSelectAvailable === true;
      }
      this.promise(base, quote, context, addedDays);
      return { company: base, points: null, holdDays: 0, idsOnly: false, ...(marks ? { marks } : {}) };
    }

    const points =
      onlyPointId === undefined ? this.pointsFor(entry, context) : this.chosenPoint(entry, context, onlyPointId);
    if (points.length === 0) return null;
    const farDates = this.dates(context, {
      min: quote.days.min + FAR_EXTRA_DAYS,
      max: quote.days.max + FAR_EXTRA_DAYS,
    });
    // one price per kind of point, way of payment and distance, not one per point
    const prices = new Map<number, PointPrice | null>();
    // with rules: the first outcome not hidden speaks for the option (its name, place in the list, dates)
    let first: OfferOutcome | null = null;
    const traced: TracedOffer[] | null = rules && context.trace ? [] : null;
    const presented: PointOption[] = [];
    for (const { point, isFar } of points) {
      const cash = point.cashPaymentAvailable;
      const key = point.type * 4 + (cash ? 2 : 0) + (isFar ? 1 : 0);
      let price = prices.get(key);
      if (price === undefined) {
        const delivery = scaled(quote.priceDeliveryKopecks, quote.pointPriceFactors?.[point.type] ?? 1);
        const before = totalKopecks(delivery, requiredKopecks, commissions, cash);
        const pointDates = isFar ? farDates : dates;
        if (rules) {
          const unit = evaluateUnit(context, offerOf(point.type, pointDates.deliveryDays.max), before, {
            companyName: company.name,
            isFar,
            deliveryDays: pointDates.deliveryDays,
          });
          if (unit.traced) traced?.push(unit.traced);
          const { outcome } = unit;
          if (outcome.hiddenBy === null) first ??= outcome;
          price =
            outcome.hiddenBy !== null
              ? null
              : {
                  isFar,
                  dates:
                    outcome.addDays > 0
                      ? this.dates(context, shifted(quote.days, outcome.addDays + (isFar ? FAR_EXTRA_DAYS : 0)))
                      : pointDates,
                  deliveryKopecks: delivery,
                  totalKopecks: outcome.priceKopecks,
                  codKopecks: cash ? commissions.codCash : commissions.codCard,
                };
        } else
          price = {
            isFar,
            dates: pointDates,
            deliveryKopecks: delivery,
            totalKopecks: customerPrice(before),
            codKopecks: cash ? commissions.codCash : commissions.codCard,
          };
        prices.set(key, price);
      }
      if (price) presented.push({ point, price });
    }
    if (presented.length === 0) return null;
    const option: CompanyOption = {
      company: base,
      points: presented,
      holdDays: company.holdDays ?? 7,
      idsOnly: context.hidePointFullInfo,
    };
    if (first) {
      if (first.addDays > 0) Object.assign(base, this.dates(context, shifted(quote.days, first.addDays)));
      renamed(base, first);
      option.marks = marksOf(first, traced ?? []);
    } else if (rules) option.marks = marksOf(NO_OUTCOME, traced ?? []);
    this.promise(base, quote, context, first?.addDays ?? 0);
    return option;
  }

  /**
   * The imported point a per-point price is asked for: an order's chosen point itself;
   * otherwise, of the company's points in the recipient's locality that take this parcel,
   * the one nearest the locality's centre stands for them all (one call per company and
   * calculation, not one per point; a city has hundreds). None in the locality: undefined,
   * so such a company offers no type 1 there rather than a price for a far point. Post
   * offices (type 3) stand for no pickup point; one is named only when the order chose it.
   */
  pointCodeFor(entry: RegisteredCompany, context: Context, chosenPointId: number | undefined): string | undefined {
    if (chosenPointId !== undefined) {
      const chosen = this.reference.registry.point(chosenPointId);
      return chosen?.companyId === entry.company.id ? chosen.code : undefined;
    }
    const { latitude, longitude } = context.recipient;
    let nearest: { code: string; km: number } | undefined;
    for (const point of this.reference.registry.pointsIn(entry.company.id, context.recipient.id)) {
      if (point.code === undefined || point.type === 3 || !pointTakes(point, context)) continue;
      const km = distanceKm(latitude, longitude, point.latitude, point.longitude);
      if (!nearest || km < nearest.km) nearest = { code: point.code, km };
    }
    return nearest?.code;
  }

  /**
   * What `pointsFor` gives of one chosen point (an order's), without testing every other point of the
   * locality: a local point that takes the parcel is offered as local whatever the others are.
   */
  private chosenPoint(
    entry: RegisteredCompany,
    context: Context,
    pointId: number,
  ): Array<{ point: DeliveryPoint; isFar: boolean }> {
    const local = this.reference.registry
      .pointsIn(entry.company.id, context.recipient.id)
      .find((point) => point.id === pointId);
    if (local) return pointTakes(local, context) ? [{ point: local, isFar: false }] : [];
    return this.pointsFor(entry, context).filter(({ point }) => point.id === pointId);
  }

  /** The company's points in the locality that take this parcel; else its nearest ones (isFar). */
  private pointsFor(entry: RegisteredCompany, context: Context): Array<{ point: DeliveryPoint; isFar: boolean }> {
    const accept = (point: DeliveryPoint) => pointTakes(point, context);
    const local = this.reference.registry.pointsIn(entry.company.id, context.recipient.id).filter(accept);
    if (local.length > 0) return local.map((point) => ({ point, isFar: false }));
    return this.reference.registry
      .nearestPoints(
        entry.company.id,
        context.recipient.latitude,
        context.recipient.longitude,
        FAR_POINTS,
        FAR_WITHIN_KM,
        accept,
      )
      .map((point) => ({ point, isFar: true }));
  }

  /**
   * The option's delivery promise (an extension, last of its fields): the route's measured days
   * from the parcel's hand-over, the warehouse's first working day from today (later by the days
   * a shipping rule adds). Own methods and promises turned off have none.
   */
  private promise(base: DeliveryCompanyResult, quote: CarrierQuote, context: Context, addedDays: number): void {
    if (!this.promises || typeof base.deliveryCompanyId !== 'number') return;
    const promise = this.promises.promiseFor(
      {
        companyId: base.deliveryCompanyId,
        deliveryType: quote.type,
        tariff: quote.tariffName,
        from: context.sender,
        to: context.recipient,
      },
      quote.days,
      this.calendar(context)(addedDays).date,
    );
    if (promise) base.promise = promise;
  }

  /** The delivery dates and calendar days of a quote's working days, from today and past the warehouse's holidays. */
  dates(context: Context, days: { min: number; max: number }): PointDates {
    const calendar = this.calendar(context);
    const from = calendar(days.min);
    const to = calendar(days.max);
    return {
      deliveryDate: { from: from.date, to: to.date },
      deliveryDays: { min: from.calendarDays, max: to.calendarDays },
    };
  }

  /** The n-th working day from today for a calculation, remembered per day and set of holidays (every company asks). */
  private calendar(context: Context): (workingDays: number) => { date: string; calendarDays: number } {
    const key = `${context.today}|${[...context.holidays].sort().join(',')}`;
    let days = this.workingDays.get(key);
    if (!days) {
      days = [];
      if (this.workingDays.size >= 1000) this.workingDays.clear();
      this.workingDays.set(key, days);
    }
    const known = days;
    return (workingDays: number) => {
      while (known.length <= workingDays) {
        const date =
          known.length === 0
            ? addWorkingDays(context.today, 0, context.holidays)
            : addWorkingDays(known[known.length - 1].date, 1, context.holidays);
        known.push({ date, calendarDays: calendarDaysBetween(context.today, date) });
      }
      return known[workingDays];
    };
  }

  private serviceName(id: number): string {
    return this.reference.services.find((service) => service.id === id)?.name ?? `Service ${id}`;
  }
}
