/**
 * README's "Your first shop, in the browser" and "The same by API": the warehouse and shop
 * bodies written out there are the documentation's examples, and posted exactly as written on a
 * fresh instance they make warehouse 1 and shop 1, which the checklist ticks; the page code shown
 * is byte for byte the dashboard's snippet; every screenshot it shows is in docs/images/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { widgetSnippet } from '../app/src/pages/checklist/snippet.js';
import { PROJECT_ROOT } from '../src/platform/reference-data.js';
import { SHOP_EXAMPLE } from '../src/modules/shops/routes.js';
import { WAREHOUSE_EXAMPLE } from '../src/modules/warehouses/routes.js';
import { createTestApp, type TestApp } from './support/app.js';

const README = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');

/** The fenced block after `<!-- marker -->`. */
function blockAfter(marker: string): string {
  const found = new RegExp(`<!-- ${marker} -->\\n\`\`\`[a-z]+\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!found) throw new Error(`README has no block after <!-- ${marker} -->`);
  return found[1] as string;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe("README's first shop", () => {
  it("writes out the schemas' examples in full", () => {
    expect(JSON.parse(blockAfter('body: POST /v2/warehouses'))).toEqual(WAREHOUSE_EXAMPLE.value);
    expect(JSON.parse(blockAfter('body: POST /v2/shops'))).toEqual(SHOP_EXAMPLE.value);
  });

  it("posted exactly as written, they make warehouse 1 and shop 1 and tick the checklist's first two steps", async () => {
    const { client, token } = await t.newAccount('README');
    // the bytes of README's blocks, as curl -d @file sends them
    const post = (url: string, marker: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: blockAfter(marker),
      });
    const warehouse = await post('/v2/warehouses', 'body: POST /v2/warehouses');
    expect(warehouse.statusCode, warehouse.body).toBe(201);
    expect(JSON.parse(warehouse.body)).toEqual({ id: 1 });
    const shop = await post('/v2/shops', 'body: POST /v2/shops');
    expect(shop.statusCode, shop.body).toBe(201);
    expect(JSON.parse(shop.body)).toEqual({ id: 1 });
    const checklist = (await client.get('/v2/account/checklist')).body;
    expect(checklist.steps.warehouse).toEqual({ done: true, warehouseId: 1 });
    expect(checklist.steps.shop).toEqual({ done: true, shopId: 1 });
  });

  it("shows the dashboard's snippet byte for byte, the element and the field it writes to declared", () => {
    const snippet = blockAfter('snippet');
    expect(snippet).toBe(
      widgetSnippet({
        serviceOrigin: 'https://delivery.example',
        file: 'widget.<hash>.js',
        integrity: 'sha384-…',
        publicKey: 'pk_…',
        locale: 'ru',
      }),
    );
    expect(snippet).toContain('<div id="delivery"></div>');
    expect(snippet).toContain('id="delivery-selection"');
  });

  it('shows screenshots that are in docs/images, small', () => {
    const images = [...README.matchAll(/\]\((docs\/images\/[^)]+\.png)\)/g)].map((match) => match[1] as string);
    expect(images.length).toBeGreaterThanOrEqual(5);
    for (const image of images) {
      const file = path.join(PROJECT_ROOT, image);
      expect(fs.existsSync(file), image).toBe(true);
      expect(fs.statSync(file).size, image).toBeLessThan(200_000);
    }
  });
});
