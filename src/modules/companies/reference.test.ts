import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { buildLocalities } from '../localities/source.js';
import { ReferenceData } from './reference.js';
import { ReferenceStore } from './store.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('reference data read back instead of built', () => {
  it('stores the very localities GeoNames gives, so a start that reads them serves the same places and points', async () => {
    const store = new ReferenceStore(t.runtime.database.db);
    expect(await store.localities()).toEqual(await buildLocalities());

    // a second start on the same database reads the stored version instead of building it
    const again = new ReferenceData(store, {
      publicUrl: t.config.publicUrl,
      dataDir: t.config.dataDir,
      trackingLink: () => '',
    });
    const loaded = await again.load();
    expect(loaded.written).toBe(false);
    const first = t.runtime.services.reference;
    expect(again.localities.all).toEqual(first.localities.all);
    for (const localityId of [524901, 498817, 1496747]) {
      const points = (registry: ReferenceData['registry']) =>
        registry.pointsOfLocality(localityId).map((point) => ({ ...point }));
      expect(points(again.registry).length).toBeGreaterThan(0);
      expect(points(again.registry)).toEqual(points(first.registry));
    }
  });
});
