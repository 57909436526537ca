/**
 * What an order's status lets the operator do: the service's rules mirrored, so that a page
 * offers only what the service would do. The rules are those of the service's order states
 * (src/modules/orders/state.ts, `refusal`), of its stickers and waybills (only an order ready
 * for shipment, 13) and of its copies (any order may be copied). This is the one place of the
 * app that decides: the order's page shows these actions, the list's batch menu offers an action
 * when one of the chosen orders allows it (the others' refusals then stand next to them). The
 * service keeps the last word: a refusal it still answers is shown.
 */
import type { Order } from '../../api';
import type { TextKey } from '../../i18n';

export type OrderAction = Extract<
  TextKey,
  | 'edit'
  | 'confirm'
  | 'confirmPreorder'
  | 'sticker'
  | 'pack'
  | 'unpack'
  | 'cancel'
  | 'return'
  | 'extendHold'
  | 'duplicate'
  | 'duplicateBack'
>;

/** What of an order the rules read. */
export type OrderState = Pick<Order, 'statusHistory' | 'isPacked' | 'error'> &
  Partial<Pick<Order, 'status' | 'fulfilment'>>;

const STATUS = {
  canceled: 10,
  draft: 11,
  confirmed: 12,
  prepared: 13,
  atPoint: 42,
  delivered: 44,
  error: 83,
} as const;

/** Not yet handed to the delivery company: it can still be packed, unpacked or cancelled. */
const NOT_HANDED_OVER: readonly number[] = [STATUS.draft, STATUS.confirmed, STATUS.prepared];
const CANCELLABLE: readonly number[] = [...NOT_HANDED_OVER, STATUS.error];
const RETURNABLE: readonly number[] = [STATUS.atPoint, STATUS.delivered];

/** The actions in the order a page shows them. */
export const ORDER_ACTIONS: readonly OrderAction[] = [
  'edit',
  'confirm',
  'confirmPreorder',
  'sticker',
  'pack',
  'unpack',
  'cancel',
  'return',
  'extendHold',
  'duplicate',
  'duplicateBack',
];

function statusOf(order: OrderState): number {
  return order.status ?? order.statusHistory?.[0]?.code ?? STATUS.draft;
}

/** Whether the service lets this order take this action now. */
export function allows(action: OrderAction, order: OrderState): boolean {
  const status = statusOf(order);
  switch (action) {
    case 'edit':
      return status === STATUS.draft || status === STATUS.error;
    case 'confirm':
      // a draft whose delivery is not priced (its error) is refused until it is fixed
      return status === STATUS.draft && !order.error;
    case 'confirmPreorder':
      return status === STATUS.draft && !order.error && order.fulfilment === true;
    case 'sticker':
      return status === STATUS.prepared;
    case 'pack':
      return NOT_HANDED_OVER.includes(status) && !order.isPacked;
    case 'unpack':
      return NOT_HANDED_OVER.includes(status) && order.isPacked;
    case 'cancel':
      return CANCELLABLE.includes(status);
    case 'return':
      return RETURNABLE.includes(status);
    case 'extendHold':
      return status === STATUS.atPoint;
    case 'duplicate':
    case 'duplicateBack':
      return true;
  }
}

/** What the order's page offers for this order. */
export function nextActions(order: OrderState): OrderAction[] {
  return ORDER_ACTIONS.filter((action) => allows(action, order));
}

/** Whether a batch action has at least one order to act on among the chosen ones. */
export function anyAllows(action: OrderAction, orders: readonly OrderState[]): boolean {
  return orders.some((order) => allows(action, order));
}
