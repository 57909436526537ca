/**
 * Which notifications an order event makes, for whom, and what they say; which events
 * also e-mail the customer. Pure.
 */
import type { AccountEvent, EventType } from '../events/types.js';
import type { Notifications } from '../shops/schemas.js';

/** Shop flags (notifications.events.*) that notifications are made for. */
export type NotificationType =
  | 'newOrder'
  | 'newProblemOrder'
  | 'ordersSentForReturn'
  | 'ordersExpirationInPickupPoint'
  | 'fulfillmentReceivedReturns'
  | 'productEndsInFulfilment'
  | 'orderProductsNotAvailableInFulfilment'
  | 'deliveryAcceptedForFulfillment';

/** Notices of no shop flag: a webhook endpoint or a shop's CMS callbacks disabled after failing for days. */
export type AccountNoticeType = 'webhookDisabled';

/** The shop flag each order event answers to; events not listed notify nobody (order.status_changed: customers only). */
export const NOTIFICATION_OF_EVENT: Partial<Record<EventType, NotificationType>> = {
  'order.created': 'newOrder',
  'order.problem': 'newProblemOrder',
  'order.late': 'newProblemOrder',
  'order.sent_for_return': 'ordersSentForReturn',
  'order.storage_ending': 'ordersExpirationInPickupPoint',
  'fulfilment.return_received': 'fulfillmentReceivedReturns',
  'fulfilment.product_ends': 'productEndsInFulfilment',
  'fulfilment.goods_missing': 'orderProductsNotAvailableInFulfilment',
  'fulfilment.supply_accepted': 'deliveryAcceptedForFulfillment',
  'marketplace_order.created': 'newOrder',
};

export const NOTIFICATION_TYPES: ReadonlyArray<NotificationType | AccountNoticeType> = [
  'newOrder',
  'newProblemOrder',
  'ordersSentForReturn',
  'ordersExpirationInPickupPoint',
  'fulfillmentReceivedReturns',
  'productEndsInFulfilment',
  'orderProductsNotAvailableInFulfilment',
  'deliveryAcceptedForFulfillment',
  'webhookDisabled',
];

export interface Person {
  /** "account" or "employee:<id>" */
  recipient: string;
  employeeId: number | null;
  email: string | null;
}

export interface Employee {
  id: number;
  email: string;
  /** A manager's shops; null for an owner, who sees every shop. */
  shopIds: number[] | null;
}

/**
 * Who is told, by the shop's recipient settings: the account owner (whose e-mail is that of
 * the account's first employee, the one created with the account) and the employees named,
 * or every employee when none are named (all employees see every shop). An e-mail address
 * gets one mail per notification however many roles it has.
 */
export function recipientsOf(settings: Notifications, employees: Employee[]): Person[] {
  const people: Person[] = [];
  const mailed = new Set<string>();
  const mailOnce = (email: string | null) => {
    if (!email || mailed.has(email)) return null;
    mailed.add(email);
    return email;
  };
  if (settings.currentAccount.enabled)
    people.push({ recipient: 'account', employeeId: null, email: mailOnce(employees[0]?.email ?? null) });
  if (settings.employees.enabled) {
    const named = new Set(settings.employees.ids);
    for (const employee of employees) {
      if (named.size > 0 && !named.has(employee.id)) continue;
      people.push({ recipient: `employee:${employee.id}`, employeeId: employee.id, email: mailOnce(employee.email) });
    }
  }
  return people;
}

/** The notification an event makes under these settings, or null (flag off, or no such notification). */
export function notificationTypeOf(event: AccountEvent, settings: Notifications): NotificationType | null {
  const type = NOTIFICATION_OF_EVENT[event.type];
  if (!type) return null;
  const flag = settings.events[type];
  // productEndsInFulfilment is {enabled, border}; its event is made only where the border was crossed
  const on = typeof flag === 'boolean' ? flag : flag.enabled;
  return on ? type : null;
}

function orderRef(event: AccountEvent): string {
  return event.payload.cmsId ? `${event.orderId} (${event.payload.cmsId})` : String(event.orderId);
}

/** A sentence for the shop owner (English, like every message of the API). */
export function notificationText(
  type: NotificationType,
  event: AccountEvent,
  shopName: string,
  statusName: (code: number) => string,
): string {
  const ref = orderRef(event);
  switch (type) {
    case 'newOrder':
      return event.payload.marketplaceOrderId !== undefined
        ? `New marketplace order ${event.payload.marketplaceOrderId} (${event.payload.cmsId}) in shop "${shopName}".`
        : `New order ${ref} in shop "${shopName}".`;
    case 'newProblemOrder': {
      if (event.type === 'order.late')
        return `Order ${ref} of shop "${shopName}" is late: promised by ${event.payload.promisedBy ?? 'a date'} and not yet delivered.`;
      const why =
        event.payload.error ??
        (event.statusTo !== null ? `status ${event.statusTo} ${statusName(event.statusTo)}` : 'a problem');
      return `Order ${ref} of shop "${shopName}" needs attention: ${why}.`;
    }
    case 'ordersSentForReturn':
      return event.payload.reason === 'requested'
        ? `A return of order ${ref} of shop "${shopName}" was requested.`
        : `Order ${ref} of shop "${shopName}" is being returned to the sender (status ${event.statusTo} ${statusName(event.statusTo ?? 0)}).`;
    case 'ordersExpirationInPickupPoint':
      return `Order ${ref} of shop "${shopName}": the last day of storage at the pickup point is ${event.payload.holdDate ?? 'tomorrow'}.`;
    case 'fulfillmentReceivedReturns':
      return `The return of order ${ref} of shop "${shopName}" was received and inspected at the fulfilment warehouse${returnedSummary(event.payload.returned)}.`;
    case 'productEndsInFulfilment':
      return `Product ${event.payload.vendorCode ?? event.payload.productId} of shop "${shopName}" runs low at the fulfilment warehouse: ${event.payload.available} available (notice at ${event.payload.border}).`;
    case 'orderProductsNotAvailableInFulfilment':
      return `Order ${ref} of shop "${shopName}" lacks goods at the fulfilment warehouse. ${event.payload.description ?? ''}`.trim();
    case 'deliveryAcceptedForFulfillment':
      return `Supply ${event.payload.supplyId} was accepted at the fulfilment warehouse${event.payload.hasDiscrepancies ? ', with discrepancies against its act' : ''} (shop "${shopName}").`;
  }
}

/** What became of a returned parcel's units at inspection, for the shop owner: "; 2 back in stock, 1 to the defect stock". */
function returnedSummary(returned: ReadonlyArray<{ outcome: string; count: number }> | undefined): string {
  if (!returned?.length) return '';
  const sum = (outcome: string) =>
    returned.filter((line) => line.outcome === outcome).reduce((s, line) => s + line.count, 0);
  const parts = [
    [sum('stock'), 'back in stock'],
    [sum('defect'), 'to the defect stock'],
    [sum('write_off'), 'written off'],
  ]
    .filter(([count]) => (count as number) > 0)
    .map(([count, what]) => `${count} ${what}`);
  return parts.length ? `: ${parts.join(', ')}` : '';
}
