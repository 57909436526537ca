/**
 * The simulated journey of a parcel with a built-in (tariff) company: a realistic sequence
 * of statuses, the same for the same order. Most arrive; some are refused or never
 * collected and travel back. Pure.
 */
import { createHash } from 'node:crypto';

export interface JourneyStep {
  code: number;
  description: string;
}

export function journeyOf(accountId: number, orderId: number, deliveryType: number): JourneyStep[] {
  const roll = createHash('sha256').update(`journey:${accountId}:${orderId}`).digest().readUInt16BE(0) % 100;
  const start: JourneyStep[] = [
    { code: 41, description: 'Accepted by the delivery company' },
    { code: 411, description: 'In transit' },
    { code: 412, description: "Arrived in the recipient's city" },
  ];
  const back: JourneyStep[] = [
    { code: 71, description: 'Returning to the sender' },
    { code: 72, description: 'Returned to the sender' },
  ];
  if (deliveryType === 2) {
    const out = { code: 43, description: 'Out for delivery' };
    if (roll < 8) return [...start, out, { code: 462, description: 'The recipient refused the parcel' }, ...back];
    return [...start, out, { code: 44, description: 'Delivered' }];
  }
  const atPoint = { code: 42, description: deliveryType === 3 ? 'At the post office' : 'At the pickup point' };
  if (roll < 5) return [...start, atPoint, { code: 51, description: 'Not collected: handed over for return' }, ...back];
  if (roll < 8) return [...start, atPoint, { code: 462, description: 'The recipient refused the parcel' }, ...back];
  return [...start, atPoint, { code: 44, description: 'Delivered' }];
}
