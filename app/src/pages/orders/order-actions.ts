/** What an order's status lets the operator do next (the service has the last word: a refusal is shown). */
import type { Order } from '../../api';
import type { TextKey } from '../../i18n';

const DRAFT = 11;
const PREPARED = 13;
const CANCELED = 10;

export function nextActions(order: Pick<Order, 'statusHistory' | 'isPacked'>): TextKey[] {
  const status = order.statusHistory?.[0]?.code ?? DRAFT;
  if (status === DRAFT) return ['edit', 'confirm', 'confirmPreorder', 'cancel'];
  if (status === CANCELED) return ['duplicate'];
  const actions: TextKey[] = [];
  if (status === PREPARED) actions.push('sticker', order.isPacked ? 'unpack' : 'pack', 'cancel');
  actions.push('duplicate', 'duplicateBack', 'return', 'extendHold');
  return actions;
}
