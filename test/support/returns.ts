/** What return tests start from: a delivered order of three lines (the simulated journey run to its end). */
import { expect } from 'vitest';
import type { JobWorker } from '../../src/platform/jobs.js';
import type { ApiClient } from './client.js';
import { orderBody, preparedOrder } from './orders.js';

/** Far enough ahead that every simulated step is due. */
export const FAR_FUTURE = () => new Date(Date.now() + 30 * 86_400_000);

export const THREE_LINES = [
  { name: 'Футболка', vendorCode: 'TEE-1', priceDeclared: 1200, priceCod: 1500, discount: 100, count: 2, weight: 0.2 },
  { name: 'Кружка', vendorCode: 'MUG-1', priceDeclared: 500, priceCod: 600, count: 1, weight: 0.4 },
  { name: 'Книга', vendorCode: 'BOOK-1', priceDeclared: 800, priceCod: 900, count: 1, weight: 0.5 },
];

/**
 * An order of `shopId` with three lines, delivered (44): the simulated journey of a built-in
 * company ends in a delivery for most orders; the few it turns back are tried again.
 */
export async function deliveredOrder(
  client: ApiClient,
  worker: JobWorker,
  at: { shopId: number; pointId: number },
  overrides: Record<string, unknown> = {},
): Promise<{ id: number; cmsId: string }> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const cmsId = `SITE-${Date.now().toString(36)}-${attempt}`;
    const { id } = await preparedOrder(client, worker, orderBody(at, { cmsId, products: THREE_LINES, ...overrides }));
    await worker.runDue(FAR_FUTURE());
    if ((await client.get(`/v2/orders/${id}`)).body.status === 44) return { id, cmsId };
  }
  expect.fail('no delivered order in 8 attempts');
}
