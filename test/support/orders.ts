/** What order tests of several areas need: a pickup point, a job worker, a Prepared order. */
import { expect } from 'vitest';
import { JobWorker } from '../../src/platform/jobs.js';
import type { TestApp } from './app.js';
import type { ApiClient } from './client.js';

const quiet = { error: () => undefined, warn: () => undefined };

/** The first pickup point of company-type 1 networks in a city (Санкт-Петербург by default). */
export function pickupPointIn(t: TestApp, city = 'Санкт-Петербург'): number {
  const locality = t.runtime.services.reference.localities.find({ countryCode: 'RU', name: city });
  if (!locality) throw new Error(`${city} is not in the reference data`);
  return t.runtime.services.reference.registry.pointsIn(1, locality.id)[0].id;
}

/** A worker that runs the orders' jobs (registration, tracking) when a test calls runDue(). */
export function orderJobWorker(t: TestApp): JobWorker {
  const worker = new JobWorker(t.runtime.services.jobs, quiet);
  t.runtime.services.tracking.registerJobs(worker);
  return worker;
}

/** Creates, confirms and registers an order: it comes back Prepared (13) with a track number. */
export async function preparedOrder(client: ApiClient, worker: JobWorker, body: Record<string, unknown>): Promise<{ id: number; trackNumber: string }> {
  const created = await client.post('/v2/orders', body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  expect((await client.post('/v2/orders/confirm', { ids: [id] })).status).toBe(204);
  await worker.runDue();
  const order = (await client.get(`/v2/orders/${id}`)).body;
  expect(order.status).toBe(13);
  return { id, trackNumber: order.trackNumber };
}
