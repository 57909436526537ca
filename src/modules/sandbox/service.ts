/**
 * The sandbox (extension): what an integrator testing against the simulated companies would
 * otherwise wait days for, run now. A billing period closes only at its end and a pickup's
 * courier comes at the start of its interval; the simulated journey takes a step a minute.
 * Refused for an account with a live contract with a real company: there these things happen
 * in the world, not here.
 */
import { requireAccountWide, type Scope } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import type { CarrierIntegrationService } from '../carrier-integrations/service.js';
import type { TrackingService } from '../orders/tracking.js';
import type { PickupService } from '../pickups/service.js';
import type { BillingService } from '../reports/billing-service.js';
import type { DeliveryHistoryMaker } from '../delivery-promises/test-history.js';
import type { HistoryBody, HistoryResult } from '../delivery-promises/schemas.js';
import type { Locality } from '../../carriers/types.js';
import { todayIn } from '../../platform/clock.js';
import type { PartialBuyoutBody } from './schemas.js';

/** What the sandbox needs of the warehouses: the cities an account sends from. */
export interface SenderCities {
  senderLocalities(scope: Scope): Promise<Locality[]>;
}

export class SandboxService {
  constructor(
    private readonly billing: BillingService,
    private readonly pickups: PickupService,
    private readonly tracking: TrackingService,
    private readonly contracts: Pick<CarrierIntegrationService, 'liveContractNames'>,
    private readonly history: DeliveryHistoryMaker,
    private readonly senders: SenderCities,
  ) {}

  /** Delivered parcels of the built-in companies from the account's cities, for the delivery promises to learn from. */
  async generateDeliveryHistory(scope: Scope, body: HistoryBody): Promise<HistoryResult> {
    await this.refuseLive(scope, 'make a delivery history');
    const senders = await this.senders.senderLocalities(scope);
    if (senders.length === 0)
      throw new AppError(
        422,
        'no_warehouse',
        'The account has no warehouse whose city is known: add one (POST /v2/warehouses), its city is where the parcels leave from.',
      );
    return this.history.generate(scope.accountId, senders, {
      parcels: body.parcels ?? 2000,
      days: body.days ?? 180,
      today: todayIn(scope.timeZone),
    });
  }

  /** Closes the account's current billing period at the end of today: its bill and agent reports are made now. */
  async closeBillingPeriod(scope: Scope, now = new Date()): Promise<{ start: string; lastDay: string }> {
    await this.refuseLive(scope, 'close a billing period');
    return this.billing.closeCurrentPeriodNow(scope.accountId, now);
  }

  /** A built-in company's booked pickup is collected now: Done, its orders handed over (14). */
  async collectPickup(scope: Scope, pickupId: number): Promise<void> {
    await this.refuseLive(scope, 'collect a pickup');
    await this.pickups.collectNow(scope, pickupId);
  }

  /** A built-in company's registered order moves one status on its journey now; answers the new status. */
  async advanceOrder(scope: Scope, orderId: number): Promise<number> {
    await this.refuseLive(scope, 'move an order');
    return this.tracking.advanceNow(scope, orderId);
  }

  /** A built-in company's order at the point is bought in part now (47); its refused lines travel back. Answers the new status. */
  async partialBuyout(scope: Scope, orderId: number, body: PartialBuyoutBody): Promise<number> {
    await this.refuseLive(scope, 'buy an order in part');
    return this.tracking.partialBuyoutNow(scope, orderId, body);
  }

  private async refuseLive(scope: Scope, action: string): Promise<void> {
    requireAccountWide(scope, `use the sandbox to ${action}`);
    const live = await this.contracts.liveContractNames(scope.accountId);
    if (live.length > 0) {
      throw new AppError(
        422,
        'live_contract',
        `The sandbox cannot ${action} for an account with a live contract (${live.join(', ')}): use a test account, or connect those companies in test mode.`,
      );
    }
  }
}
