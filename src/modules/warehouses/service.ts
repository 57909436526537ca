/** Sender warehouses of an account, and the service's fulfilment warehouses (hold=1). */
import { requireAccountWide, type Scope } from '../../platform/auth.js';
import { todayIn } from '../../platform/clock.js';
import { conflict, FieldErrorCollector, forbidden, notFound } from '../../platform/errors.js';
import type { Page, Paging } from '../../platform/paging.js';
import type { CountryDirectory } from '../lists/countries.js';
import { checkAddress, type AddressChecker } from '../addresses/register-check.js';
import type { Warehouse, WarehouseInput, WarehouseListQuery } from './schemas.js';
import { WAREHOUSE_TYPE } from './schemas.js';
import type {
  FulfilmentWarehouseRecord,
  WarehouseFilter,
  WarehouseRecord,
  WarehouseStore,
  WarehouseValues,
} from './store.js';

/** What checks a warehouse's drop-off points: the delivery companies and their points (the carrier registry). */
export interface DropOffPointDirectory {
  companyOf(
    accountId: number,
    companyId: number,
  ): Promise<{ company: { name: string; pickup?: { dropOff: boolean } } } | undefined>;
  point(id: number): { companyId: number } | undefined;
}

/** Another area that may hold on to a warehouse (shops do); it lists what uses it. */
export type WarehouseUsageCheck = (scope: Scope, warehouseId: number) => Promise<string[]>;

const MERGED_PICKUP_TYPES = [2, 3];
const TIME = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
/** The service's fulfilment warehouses ship through its consolidated pickup. */
const FULFILMENT_PICKUP_TYPE = 3;

export class WarehouseService {
  private readonly usageChecks: WarehouseUsageCheck[] = [];
  private readonly changeListeners: Array<(scope: Scope, warehouseId: number) => void> = [];

  constructor(
    private readonly store: WarehouseStore,
    private readonly countries: CountryDirectory,
    private readonly dropOffPoints: DropOffPointDirectory,
    /** The federal address register (addresses area); without it a warehouse's address is kept as typed, unchecked. */
    private readonly addresses: AddressChecker | null = null,
  ) {}

  /** Areas that reference warehouses register here, so a warehouse in use is not deleted. */
  addUsageCheck(check: WarehouseUsageCheck): void {
    this.usageChecks.push(check);
  }

  /** Areas that embed warehouses (shops) hear of every change to one. */
  onChange(listener: (scope: Scope, warehouseId: number) => void): void {
    this.changeListeners.push(listener);
  }

  private changed(scope: Scope, warehouseId: number): void {
    for (const listener of this.changeListeners) listener(scope, warehouseId);
  }

  /** The account's first sender warehouse (the first-run checklist), or null. */
  firstId(accountId: number): Promise<number | null> {
    return this.store.firstId(accountId);
  }

  async list(
    scope: Scope,
    query: WarehouseListQuery,
    paging: Paging,
    shopWarehouseId: number | null,
  ): Promise<Page<Warehouse>> {
    if (query.hold === 1) return this.listFulfilment(scope, query, paging);
    const filter: WarehouseFilter = {};
    if (query.name) filter.nameContains = query.name;
    if (query.onlyMergedPickup === 1) filter.pickupTypes = MERGED_PICKUP_TYPES;
    if (query.integrationMarketplaceId !== undefined) {
      const fulfilment = await this.store.listFulfilment();
      filter.fulfilmentWarehouseIds = fulfilment
        .filter((item) => item.integrationMarketplaceIds.includes(query.integrationMarketplaceId as number))
        .map((item) => item.id);
    }
    if (shopWarehouseId !== null) filter.onlyId = shopWarehouseId;
    const page = await this.store.list(scope.accountId, filter, paging);
    return { items: await this.present(scope, page.items), total: page.total };
  }

  /** A shop key may only see its own shop's warehouse: pass it as `visibleOnly`. */
  async get(scope: Scope, id: number, visibleOnly: number | null = null): Promise<Warehouse> {
    const record = await this.store.get(scope.accountId, id);
    if (!record) throw notFound('Warehouse', id);
    if (visibleOnly !== null && visibleOnly !== id)
      throw forbidden(`This API key may only read the warehouse of its shop (${visibleOnly}).`);
    return (await this.present(scope, [record]))[0];
  }

  /** Full models of the account's warehouses by id (for shops, which embed them). */
  async getMany(scope: Scope, ids: number[]): Promise<Map<number, Warehouse>> {
    const records = await this.store.getMany(scope.accountId, [...new Set(ids)]);
    const models = await this.present(scope, [...records.values()]);
    return new Map(models.map((model) => [model.id, model]));
  }

  async exists(scope: Scope, id: number): Promise<boolean> {
    return (await this.store.get(scope.accountId, id)) !== undefined;
  }

  async create(scope: Scope, input: WarehouseInput): Promise<number> {
    requireAccountWide(scope, 'create warehouses');
    const values = await this.validate(scope, input, []);
    return this.store.insert(scope.accountId, await this.checked(scope, values));
  }

  async replace(scope: Scope, id: number, input: WarehouseInput): Promise<void> {
    requireAccountWide(scope, 'change warehouses');
    const existing = await this.store.get(scope.accountId, id);
    if (!existing) throw notFound('Warehouse', id);
    if (existing.type === WAREHOUSE_TYPE.fulfilment) {
      throw conflict(
        'warehouse_not_editable',
        `Warehouse ${id} is a fulfilment warehouse; it cannot be edited after creation. Create a new one instead.`,
      );
    }
    if (input.type !== existing.type) {
      throw conflict('warehouse_type_immutable', `The type of warehouse ${id} cannot be changed after creation.`, [
        { field: 'type', message: 'cannot be changed' },
      ]);
    }
    const values = await this.validate(scope, input, existing.dropOffPoints);
    await this.store.update(scope.accountId, id, await this.checked(scope, values));
    this.changed(scope, id);
  }

  async delete(scope: Scope, id: number): Promise<void> {
    requireAccountWide(scope, 'delete warehouses');
    if (!(await this.store.get(scope.accountId, id))) throw notFound('Warehouse', id);
    const users: string[] = [];
    for (const check of this.usageChecks) users.push(...(await check(scope, id)));
    if (users.length > 0) {
      throw conflict(
        'warehouse_in_use',
        `Warehouse ${id} is used by ${users.join(', ')}; give them another warehouse first.`,
      );
    }
    await this.store.delete(scope.accountId, id);
    this.changed(scope, id);
  }

  /** The service's fulfilment warehouses (reference data, the same for every account). */
  async fulfilmentWarehouses(): Promise<FulfilmentWarehouseRecord[]> {
    return this.store.listFulfilment();
  }

  /**
   * Where the goods of an account's fulfilment-type warehouse are kept, and whether its
   * preorders are reserved by themselves when goods arrive (asked for, and offered there).
   * Null for an own warehouse or one that no longer exists.
   */
  async fulfilmentOf(
    accountId: number,
    warehouseId: number,
  ): Promise<{ fulfilmentWarehouseId: number; autoReserve: boolean } | null> {
    const record = await this.store.get(accountId, warehouseId);
    if (!record || record.type !== WAREHOUSE_TYPE.fulfilment || record.fulfilmentWarehouseId === null) return null;
    const offered =
      (await this.store.listFulfilment()).find((item) => item.id === record.fulfilmentWarehouseId)
        ?.autoReserveAvailable ?? false;
    return {
      fulfilmentWarehouseId: record.fulfilmentWarehouseId,
      autoReserve: record.fulfilmentAutoReserve && offered,
    };
  }

  /** The account's fulfilment-type warehouses at `fulfilmentWarehouseId` whose preorders are reserved by themselves. */
  async autoReservingAt(accountId: number, fulfilmentWarehouseId: number): Promise<number[]> {
    const offered =
      (await this.store.listFulfilment()).find((item) => item.id === fulfilmentWarehouseId)?.autoReserveAvailable ??
      false;
    if (!offered) return [];
    const page = await this.store.list(
      accountId,
      { fulfilmentWarehouseIds: [fulfilmentWarehouseId] },
      { page: 1, perPage: 1000, offset: 0 },
    );
    return page.items.filter((item) => item.fulfilmentAutoReserve).map((item) => item.id);
  }

  /** Loads the reference list shipped in data/ (at start and by the CLI). */
  async importFulfilmentWarehouses(records: FulfilmentWarehouseRecord[]): Promise<void> {
    await this.store.upsertFulfilment(records);
  }

  private async listFulfilment(scope: Scope, query: WarehouseListQuery, paging: Paging): Promise<Page<Warehouse>> {
    const today = todayIn(scope.timeZone);
    let items = await this.store.listFulfilment();
    if (query.name) {
      const needle = query.name.toLowerCase();
      items = items.filter((item) => item.name.toLowerCase().includes(needle));
    }
    if (query.integrationMarketplaceId !== undefined) {
      items = items.filter((item) => item.integrationMarketplaceIds.includes(query.integrationMarketplaceId as number));
    }
    if (query.onlyMergedPickup === 1 && !MERGED_PICKUP_TYPES.includes(FULFILMENT_PICKUP_TYPE)) items = [];
    const models: Warehouse[] = items.map((item) => ({
      id: item.id,
      name: item.name,
      type: WAREHOUSE_TYPE.fulfilment,
      pickupType: FULFILMENT_PICKUP_TYPE,
      senderOtherEntity: { enabled: false, company: null },
      fulfilmentWarehouseId: item.id,
      fulfilmentAutoReserve: false,
      address: item.address,
      contact: item.contact,
      holidays: item.holidays.filter((date) => date >= today),
      schedule: item.schedule,
      markCompletedOrders: false,
      dropOffPoints: [],
      fulfilmentAutoReserveAvailable: item.autoReserveAvailable,
    }));
    return { items: models.slice(paging.offset, paging.offset + paging.perPage), total: models.length };
  }

  private async present(scope: Scope, records: WarehouseRecord[]): Promise<Warehouse[]> {
    const today = todayIn(scope.timeZone);
    const needsReference = records.some((record) => record.type === WAREHOUSE_TYPE.fulfilment);
    const reference = needsReference
      ? new Map((await this.store.listFulfilment()).map((item) => [item.id, item]))
      : new Map<number, FulfilmentWarehouseRecord>();
    return records.map((record) => {
      const model: Warehouse = { ...record, holidays: record.holidays.filter((date) => date >= today) };
      if (record.type === WAREHOUSE_TYPE.fulfilment) {
        const fulfilment =
          record.fulfilmentWarehouseId === null ? undefined : reference.get(record.fulfilmentWarehouseId);
        model.fulfilmentAutoReserveAvailable = fulfilment?.autoReserveAvailable ?? false;
      }
      return model;
    });
  }

  /**
   * The values with what the register made of the address (`address.register`), checked again on
   * every save: the address may have changed, and a check that failed last time may pass now.
   * Only a Russian address: the register is Russia's, and a foreign one would only get a finding
   * that it is not in it. Never refuses: a failure or a deadline is a finding (register-check.ts).
   */
  private async checked(scope: Scope, values: WarehouseValues): Promise<WarehouseValues> {
    if (!this.addresses || values.address.city.countryCode !== 'RU') return values;
    const register = await checkAddress(this.addresses, values.address, scope.accountId, {
      advice:
        "until the register places the house, the drop-off point and own courier zones are measured from the locality's centre",
    });
    return { ...values, address: { ...values.address, register } };
  }

  /** Every rule beyond the schema; all problems are reported together. `keptDropOffPoints`: what a PUT without them keeps. */
  private async validate(
    scope: Scope,
    input: WarehouseInput,
    keptDropOffPoints: Warehouse['dropOffPoints'],
  ): Promise<WarehouseValues> {
    const problems = new FieldErrorCollector();
    const dropOffPoints = input.dropOffPoints ?? keptDropOffPoints;
    if (input.dropOffPoints) await this.checkDropOffPoints(scope, input.dropOffPoints, problems);
    const countryCode = input.address.city.countryCode.toUpperCase();
    if (!this.countries.has(countryCode))
      problems.add('address.city.countryCode', `"${input.address.city.countryCode}" is not a known country code`);

    const fulfilmentId = input.fulfilmentWarehouseId ?? null;
    const autoReserve = input.fulfilmentAutoReserve ?? false;
    if (input.type === WAREHOUSE_TYPE.fulfilment) {
      if (fulfilmentId === null) {
        problems.add(
          'fulfilmentWarehouseId',
          'is required for a fulfilment warehouse (type 2); pick one of GET /v2/warehouses?hold=1',
        );
      } else {
        const fulfilment = (await this.store.listFulfilment()).find((item) => item.id === fulfilmentId);
        if (!fulfilment)
          problems.add(
            'fulfilmentWarehouseId',
            `${fulfilmentId} is not one of the fulfilment warehouses of GET /v2/warehouses?hold=1`,
          );
        else if (autoReserve && !fulfilment.autoReserveAvailable) {
          problems.add(
            'fulfilmentAutoReserve',
            `fulfilment warehouse ${fulfilmentId} does not support automatic reservation`,
          );
        }
      }
    } else {
      if (fulfilmentId !== null) problems.add('fulfilmentWarehouseId', 'is only for fulfilment warehouses (type 2)');
      if (autoReserve) problems.add('fulfilmentAutoReserve', 'is only for fulfilment warehouses (type 2)');
    }

    const sender = input.senderOtherEntity ?? { enabled: false, company: null };
    const company = sender.company ?? null;
    if (sender.enabled) {
      if (!company?.name?.trim())
        problems.add('senderOtherEntity.company.name', 'is required when the sender is another company');
      if (!company?.TIN)
        problems.add('senderOtherEntity.company.TIN', 'is required when the sender is another company');
    }

    const schedule = input.schedule.map((day, index) => {
      const hours = normaliseScheduleDay(day);
      if (hours && (!TIME.test(hours.from) || !TIME.test(hours.to)))
        problems.add(`schedule[${index}]`, 'must hold times between 00:00 and 24:00');
      else if (hours && hours.from >= hours.to) problems.add(`schedule[${index}]`, 'must end after it starts');
      return hours;
    });

    problems.throwIfAny();
    const today = todayIn(scope.timeZone);
    const holidays = [...new Set(input.holidays ?? [])].filter((date) => date >= today).sort();
    return {
      name: input.name.trim(),
      type: input.type,
      pickupType: input.pickupType ?? 1,
      senderOtherEntity: {
        enabled: sender.enabled,
        company: company
          ? { TIN: company.TIN ?? null, name: company.name ?? null, director: company.director ?? null }
          : null,
      },
      fulfilmentWarehouseId: input.type === WAREHOUSE_TYPE.fulfilment ? fulfilmentId : null,
      fulfilmentAutoReserve: input.type === WAREHOUSE_TYPE.fulfilment ? autoReserve : false,
      address: {
        street: input.address.street.trim(),
        house: input.address.house ?? null,
        bulk: input.address.bulk ?? null,
        flat: input.address.flat ?? null,
        city: {
          countryCode,
          name: input.address.city.name.trim(),
          fias: input.address.city.fias ?? null,
          type: input.address.city.type ?? null,
          region: input.address.city.region ?? null,
          area: input.address.city.area ?? null,
        },
      },
      contact: {
        name: input.contact.name.trim(),
        position: input.contact.position ?? null,
        phone: input.contact.phone.trim(),
      },
      holidays,
      schedule,
      markCompletedOrders: input.markCompletedOrders ?? false,
      dropOffPoints: dropOffPoints.map(({ companyId, pointId }) => ({ companyId, pointId })),
    };
  }

  /** Each a company of the account that takes drop-offs, once, with one of its own points. */
  private async checkDropOffPoints(
    scope: Scope,
    entries: Warehouse['dropOffPoints'],
    problems: FieldErrorCollector,
  ): Promise<void> {
    const seen = new Set<number>();
    for (const [index, { companyId, pointId }] of entries.entries()) {
      const field = `dropOffPoints[${index}]`;
      const company = (await this.dropOffPoints.companyOf(scope.accountId, companyId))?.company;
      if (!company)
        problems.add(
          `${field}.companyId`,
          `${companyId} is not a delivery company of this account (GET /v2/lists/delivery-companies)`,
        );
      else if (seen.has(companyId))
        problems.add(`${field}.companyId`, `names ${company.name} a second time; one drop-off point per company`);
      else if (company.pickup && !company.pickup.dropOff)
        problems.add(`${field}.companyId`, `${company.name} takes no drop-offs at its points`);
      else if (this.dropOffPoints.point(pointId)?.companyId !== companyId)
        problems.add(
          `${field}.pointId`,
          `is not a drop-off point of ${company.name} (GET /v2/orders/shipment lists them)`,
        );
      seen.add(companyId);
    }
  }
}

function padTime(time: string): string {
  const [hours, minutes] = time.trim().split(':');
  return `${hours.padStart(2, '0')}:${minutes}`;
}

/** `{from, to}`, "HH:MM-HH:MM", "" or null -> `{from, to}` with two-digit hours, or null. */
export function normaliseScheduleDay(day: WarehouseInput['schedule'][number]): { from: string; to: string } | null {
  if (day === null) return null;
  if (typeof day === 'string') {
    if (day.trim() === '') return null;
    const [from, to] = day.split('-');
    return { from: padTime(from), to: padTime(to) };
  }
  return { from: padTime(day.from), to: padTime(day.to) };
}
