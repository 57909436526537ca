/**
 * An account's own delivery methods (convention 12): the shop delivers itself,
 * priced by its own brackets. Other areas read them through `methodsOf` / `method`.
 */
import type { Scope } from '../../platform/auth.js';
import { declareChange } from '../../platform/audit.js';
import type { AccountReadCache } from '../../platform/cache.js';
import { FieldErrorCollector, forbidden, notFound } from '../../platform/errors.js';
import { gramsOf } from '../../platform/measures.js';
import { toKopecks, toRoubles } from '../../platform/money.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { ReferenceData } from '../companies/reference.js';
import { LocalityDirectory } from '../localities/directory.js';
import { normaliseScheduleDay } from '../warehouses/service.js';
import { ownMethodId, parseOwnMethodId, type OwnMethod } from './rules.js';
import type { DeliveryMethod, DeliveryMethodInput, DeliveryMethodListQuery } from './schemas.js';
import type { DeliveryMethodStore, MethodValues } from './store.js';

const CACHE_TOPIC = 'delivery-methods';
const TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;

export function presentMethod(method: OwnMethod): DeliveryMethod {
  return {
    id: ownMethodId(method.accountId, method.id),
    name: method.name,
    type: method.type,
    localities: method.localities,
    radiusKm: method.radiusKm,
    priceRules: method.priceRules.map((rule) => ({
      weightTo: rule.weightToGrams === null ? null : rule.weightToGrams / 1000,
      orderSumFrom: rule.orderSumFromKopecks === null ? null : toRoubles(rule.orderSumFromKopecks),
      price: toRoubles(rule.priceKopecks),
    })),
    freeFrom: method.freeFromKopecks === null ? null : toRoubles(method.freeFromKopecks),
    days: method.days,
    points: method.points,
    cashPaymentAvailable: method.cashPaymentAvailable,
    cardPaymentAvailable: method.cardPaymentAvailable,
  };
}

function kopecks(roubles: number, field: string, problems: FieldErrorCollector): number {
  if (Math.abs(roubles * 100 - Math.round(roubles * 100)) > 1e-6)
    problems.add(field, 'must be given to the kopeck (at most 2 decimals)');
  return toKopecks(roubles);
}

export class DeliveryMethodService {
  constructor(
    private readonly store: DeliveryMethodStore,
    private readonly reference: ReferenceData,
    private readonly cache: AccountReadCache,
  ) {}

  // ---------------------------------------------------------------- for other areas

  /** Every own method of the account, remembered until one changes (the calculator asks on every call). */
  methodsOf(accountId: number): Promise<OwnMethod[]> {
    return this.cache.read(accountId, CACHE_TOPIC, 'all', () => this.store.all(accountId));
  }

  /** One own method of the account by its number, or undefined. */
  async method(accountId: number, methodId: number): Promise<OwnMethod | undefined> {
    return (await this.methodsOf(accountId)).find((method) => method.id === methodId);
  }

  // ---------------------------------------------------------------- endpoints

  async list(scope: Scope, query: DeliveryMethodListQuery, paging: Paging): Promise<Page<DeliveryMethod>> {
    const all = (await this.methodsOf(scope.accountId))
      .filter((method) => query.type === undefined || method.type === query.type)
      .reverse();
    return { items: all.slice(paging.offset, paging.offset + paging.perPage).map(presentMethod), total: all.length };
  }

  async get(scope: Scope, idText: string): Promise<DeliveryMethod> {
    return presentMethod(await this.found(scope, idText));
  }

  async create(scope: Scope, input: DeliveryMethodInput): Promise<string> {
    this.requireAccountWide(scope);
    const values = this.validate(input, []);
    declareChange({ type: 'delivery_methods', ids: [], before: null, after: input });
    const id = await this.store.insert(scope.accountId, values);
    this.changed(scope.accountId);
    return ownMethodId(scope.accountId, id);
  }

  async replace(scope: Scope, idText: string, input: DeliveryMethodInput): Promise<void> {
    this.requireAccountWide(scope);
    const current = await this.found(scope, idText);
    const values = this.validate(
      input,
      current.points.map((point) => point.id),
    );
    declareChange({ type: 'delivery_methods', ids: [current.id], before: presentMethod(current), after: input });
    if (!(await this.store.update(scope.accountId, current.id, values))) throw notFound('Delivery method', idText);
    this.changed(scope.accountId);
  }

  /** Orders made with it keep their copy of its name and point. */
  async delete(scope: Scope, idText: string): Promise<void> {
    this.requireAccountWide(scope);
    const current = await this.found(scope, idText);
    declareChange({ type: 'delivery_methods', ids: [current.id], before: presentMethod(current), after: null });
    if (!(await this.store.delete(scope.accountId, current.id))) throw notFound('Delivery method', idText);
    this.changed(scope.accountId);
  }

  // ---------------------------------------------------------------- helpers

  /** A shop's key serves one shop's plugin: it may read the account's methods, not change them. */
  private requireAccountWide(scope: Scope): void {
    if (scope.shopKeyShopId !== null)
      throw forbidden(
        "A shop's API key may read the account's delivery methods but not change them; use an account token.",
      );
  }

  /** `'{accountId}_{methodId}'` of this account, or the method's number alone; anything else is not found. */
  private async found(scope: Scope, idText: string): Promise<OwnMethod> {
    const parsed =
      parseOwnMethodId(idText) ??
      (/^[1-9]\d{0,14}$/.test(idText) ? { accountId: scope.accountId, methodId: Number(idText) } : null);
    const method =
      parsed && parsed.accountId === scope.accountId
        ? await this.store.get(scope.accountId, parsed.methodId)
        : undefined;
    if (!method) throw notFound('Delivery method', idText);
    return method;
  }

  private validate(input: DeliveryMethodInput, ownPointIds: number[]): MethodValues {
    const problems = new FieldErrorCollector();
    const localities: string[] = [];
    for (const [index, entry] of (input.localities ?? []).entries()) {
      const locality = this.reference.localities.byFiasOrOwnId(entry);
      if (!locality)
        problems.add(
          `localities[${index}]`,
          `${entry} is not a locality we know (a FIAS id, or gn:<id> as the service answers)`,
        );
      else localities.push(LocalityDirectory.fiasOf(locality));
    }
    const radiusKm = input.radiusKm ?? null;
    if (localities.length === 0 && radiusKm === null && problems.isEmpty)
      problems.add('localities', 'give the localities served, or radiusKm around the warehouse');
    if (input.days.min > input.days.max) problems.add('days.max', 'must not be less than days.min');

    const priceRules = input.priceRules.map((rule, index) => {
      const field = `priceRules[${index}]`;
      return {
        weightToGrams:
          rule.weightTo === undefined || rule.weightTo === null
            ? null
            : gramsOf(rule.weightTo, `${field}.weightTo`, problems),
        orderSumFromKopecks:
          rule.orderSumFrom === undefined || rule.orderSumFrom === null
            ? null
            : kopecks(rule.orderSumFrom, `${field}.orderSumFrom`, problems),
        priceKopecks: kopecks(rule.price, `${field}.price`, problems),
      };
    });
    const freeFromKopecks =
      input.freeFrom === undefined || input.freeFrom === null ? null : kopecks(input.freeFrom, 'freeFrom', problems);

    const points = (input.points ?? []).map((point, index) => {
      const field = `points[${index}]`;
      if (point.id !== undefined && point.id !== null && !ownPointIds.includes(point.id))
        problems.add(`${field}.id`, `point ${point.id} is not a point of this method (leave id out for a new point)`);
      const schedule = point.schedule
        ? point.schedule.map((day, dayIndex) => {
            const hours = normaliseScheduleDay(day);
            if (hours && (!TIME.test(hours.from) || !TIME.test(hours.to)))
              problems.add(`${field}.schedule[${dayIndex}]`, 'must hold times between 00:00 and 24:00');
            else if (hours && hours.from >= hours.to)
              problems.add(`${field}.schedule[${dayIndex}]`, 'must end after it starts');
            return hours;
          })
        : null;
      return {
        id: point.id ?? null,
        name: point.name.trim(),
        address: point.address.trim(),
        latitude: point.latitude,
        longitude: point.longitude,
        schedule,
        description: point.description?.trim() || null,
        zipCode: point.zipCode?.trim() || null,
      };
    });
    if (input.type === 1 && points.length === 0)
      problems.add('points', 'a pickup-point method (type 1) needs at least one point of the shop');
    if (input.type !== 1 && points.length > 0) problems.add('points', 'only a pickup-point method (type 1) has points');
    const pointIds = points.map((point) => point.id).filter((id) => id !== null);
    if (new Set(pointIds).size !== pointIds.length) problems.add('points', 'each point id may appear once');
    if (!input.name.trim()) problems.add('name', 'must not be empty');
    problems.throwIfAny();
    return {
      name: input.name.trim(),
      type: input.type,
      localities: [...new Set(localities)],
      radiusKm,
      priceRules,
      freeFromKopecks,
      days: input.days,
      cashPaymentAvailable: input.cashPaymentAvailable ?? false,
      cardPaymentAvailable: input.cardPaymentAvailable ?? false,
      points,
    };
  }

  private changed(accountId: number): void {
    this.cache.invalidate(accountId, CACHE_TOPIC);
  }
}
