import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GarRegionWriter, guidOf, writeGarTypeLists } from '../../../bench/support/gar-writer.js';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { GarFileError } from './gar-reader.js';
import type { AddressImportService } from './import-service.js';
import { houseSearchKey, searchKey, typedHouseKey } from './search-key.js';

let testApp: TestApp;
let imports: AddressImportService;
let dir: string;

beforeAll(async () => {
  testApp = await createTestApp();
  imports = testApp.runtime.services.addressImports;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gar-test-'));
});
afterAll(async () => {
  await testApp.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const db = () => testApp.runtime.database.db;

/** A region of our own (91, 92: far from the sample's) with a town, a street and houses. */
async function writeRegion(
  root: string,
  region: number,
  options: { houses?: number; base?: number } = {},
): Promise<void> {
  const base = options.base ?? region * 100_000;
  const writer = new GarRegionWriter(root, region);
  writer.object({ objectId: base, guid: guidOf(base), name: `Регион ${region}`, typeName: 'обл', level: 1 });
  writer.adm(base, 0, `${base}`);
  writer.object({ objectId: base + 1, guid: guidOf(base + 1), name: 'Тестовск', typeName: 'г', level: 5 });
  writer.adm(base + 1, base, `${base}.${base + 1}`);
  writer.object({ objectId: base + 2, guid: guidOf(base + 2), name: 'Садовая', typeName: 'ул', level: 8 });
  writer.adm(base + 2, base + 1, `${base}.${base + 1}.${base + 2}`);
  writer.param('object', base + 2, 5, '999001');
  for (let i = 0; i < (options.houses ?? 3); i++) {
    const id = base + 10 + i;
    writer.house({ objectId: id, guid: guidOf(id), houseNum: String(i + 1), addNum1: i === 0 ? '2' : null });
    writer.adm(id, base + 2, `${base}.${base + 1}.${base + 2}.${id}`);
    writer.param('house', id, 5, '999002');
  }
  await writer.close();
}

describe('the register import', () => {
  it('loads the shipped sample on a first start: cities, streets with postcodes, houses with корпус, flats', async () => {
    const moscowStreets = await db()
      .selectFrom('address_objects')
      .selectAll()
      .where('region_code', '=', 77)
      .where('level', '=', 8)
      .execute();
    expect(moscowStreets.length).toBeGreaterThanOrEqual(20);
    const tverskaya = moscowStreets.find((street) => street.name === 'Тверская')!;
    expect(tverskaya).toMatchObject({ type_short: 'ул', search_key: 'тверская', kladr: expect.stringMatching(/^77/) });
    expect(Number(tverskaya.popularity)).toBeGreaterThan(0);
    const houses = await db()
      .selectFrom('address_houses')
      .selectAll()
      .where('parent_id', '=', tverskaya.object_id)
      .execute();
    expect(houses.length).toBe(Number(tverskaya.popularity));
    expect(houses[0].postcode).toMatch(/^1\d{5}$/);
    const withBlock = await db()
      .selectFrom('address_houses')
      .selectAll()
      .where('add_num1', 'is not', null)
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(withBlock.search_key).toBe(houseSearchKey(withBlock.house_num, withBlock.add_num1, withBlock.add_num2));
    expect(withBlock.search_key).toMatch(/к/);
    const moscow = await db()
      .selectFrom('address_objects')
      .selectAll()
      .where('guid', '=', '0c5b2444-70a0-4932-980c-b4dc0d3f02b5')
      .executeTakeFirstOrThrow();
    expect(moscow).toMatchObject({ level: 1, postcode: '101000', okato: '45000000000', geo_precision: 'locality' });
    expect(Number(moscow.lat)).toBeCloseTo(55.75, 1);
    expect(Number(moscow.popularity)).toBeGreaterThan(1_000_000);
    const kazan = await db()
      .selectFrom('address_objects')
      .selectAll()
      .where('guid', '=', '93b3df57-4c89-44df-ac42-96f05e9cd3b9')
      .executeTakeFirstOrThrow();
    expect(kazan).toMatchObject({ region_code: 16, level: 5, geo_precision: 'locality' });
    expect(kazan.parent_id).not.toBeNull();
    const flats = await db()
      .selectFrom('address_flats')
      .select(['number', 'house_id'])
      .where('region_code', '=', 77)
      .execute();
    expect(flats.length).toBeGreaterThan(0);
    const types = await db().selectFrom('address_types').selectAll().where('kind', '=', 'addhouse').execute();
    expect(types.map((type) => type.full_name)).toContain('Корпус');
    const status = await imports.status();
    expect(status.totals.regions).toBeGreaterThanOrEqual(7);
  });

  it('applies a delta: a renamed street, a new house, a removed house', async () => {
    const full = path.join(dir, 'full');
    await writeGarTypeLists(full);
    await writeRegion(full, 91);
    await imports.importRegister(full);
    const base = 91 * 100_000;
    const delta = path.join(dir, 'delta');
    const writer = new GarRegionWriter(delta, 91);
    writer.object({
      objectId: base + 2,
      guid: guidOf(base + 2),
      name: 'Садовая-Черногрязская',
      typeName: 'ул',
      level: 8,
      changeId: base + 500,
    });
    writer.house({ objectId: base + 50, guid: guidOf(base + 50), houseNum: '12/2', changeId: base + 501 });
    writer.adm(base + 50, base + 2, `${base}.${base + 1}.${base + 2}.${base + 50}`, base + 501);
    writer.house({ objectId: base + 11, guid: guidOf(base + 11), houseNum: '2', changeId: base + 502, actual: false });
    await writer.close();
    const result = await imports.importRegister(delta, { delta: true });
    expect(result.regions['91']).toMatchObject({ objects: 3, houses: 3 });
    const street = await db()
      .selectFrom('address_objects')
      .selectAll()
      .where('object_id', '=', base + 2)
      .executeTakeFirstOrThrow();
    expect(street).toMatchObject({
      name: 'Садовая-Черногрязская',
      search_key: 'садовая черногрязская',
      postcode: '999001',
    });
    const houses = await db()
      .selectFrom('address_houses')
      .select(['object_id', 'search_key'])
      .where('parent_id', '=', base + 2)
      .orderBy('object_id')
      .execute();
    expect(houses.map((house) => house.search_key)).toEqual(['1к2', '3', '12/2']);
  });

  it('stops at a truncated file naming the file and the line, and keeps the region as it was', async () => {
    const root = path.join(dir, 'truncated');
    await writeRegion(root, 92, { houses: 5 });
    await imports.importRegister(root);
    const before = await db().selectFrom('address_houses').select('object_id').where('region_code', '=', 92).execute();
    expect(before).toHaveLength(5);
    const broken = path.join(dir, 'broken');
    await writeRegion(broken, 92, { houses: 2 });
    const houseFile = fs.readdirSync(path.join(broken, '92')).find((name) => name.startsWith('AS_HOUSES_2'))!;
    const text = fs.readFileSync(path.join(broken, '92', houseFile), 'utf8');
    fs.writeFileSync(
      path.join(broken, '92', houseFile),
      `\uFEFF${text.slice(0, text.length - 40).replace('/><HOUSE', '/>\n<HOUSE')}`,
    );
    const error = await imports.importRegister(broken).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GarFileError);
    expect((error as GarFileError).file).toBe(`92/${houseFile}`);
    expect((error as GarFileError).line).toBe(2);
    expect((error as Error).message).toMatch(/^Файл 92\/AS_HOUSES_.*строка 2.* \/ File 92\/AS_HOUSES_.*line 2/);
    const after = await db().selectFrom('address_houses').select('object_id').where('region_code', '=', 92).execute();
    expect(after).toHaveLength(5);
    const stage = await db().selectFrom('address_stage_houses').select('object_id').execute();
    expect(stage).toHaveLength(0);
  });

  it('refuses a foreign XML file (another root element)', async () => {
    const root = path.join(dir, 'foreign');
    await writeRegion(root, 93);
    const objectFile = fs.readdirSync(path.join(root, '93')).find((name) => name.startsWith('AS_ADDR_OBJ_2'))!;
    fs.writeFileSync(path.join(root, '93', objectFile), '<?xml version="1.0"?>\n<rss><channel/></rss>');
    const error = await imports.importRegister(root).catch((caught: unknown) => caught);
    expect((error as Error).message).toContain('корневой элемент rss');
    expect((error as Error).message).toContain(`File 93/${objectFile}, line 2: the root element is rss`);
    expect(
      await db().selectFrom('address_objects').select('object_id').where('region_code', '=', 93).execute(),
    ).toHaveLength(0);
  });

  it('resumes a stopped run from the first region not done', async () => {
    const root = path.join(dir, 'resume');
    await writeRegion(root, 94);
    await writeRegion(root, 95);
    const stopped = await imports
      .importRegister(root, {
        afterRegion: (region) => {
          if (region === 94) throw new Error('stopped by the test');
        },
      })
      .catch((caught: unknown) => caught);
    expect((stopped as Error).message).toBe('stopped by the test');
    expect(
      await db().selectFrom('address_houses').select('object_id').where('region_code', '=', 95).execute(),
    ).toHaveLength(0);
    const lines: string[] = [];
    const resumed = await imports.importRegister(root, { onProgress: (line) => lines.push(line) });
    expect(resumed.resumed).toBe(true);
    expect(Object.keys(resumed.regions)).toEqual(['94', '95']);
    expect(lines.filter((line) => line.startsWith('Region '))).toEqual([expect.stringMatching(/^Region 95 done/)]);
    expect(
      await db().selectFrom('address_houses').select('object_id').where('region_code', '=', 95).execute(),
    ).toHaveLength(3);
    const status = await imports.status();
    expect(status.imports[0]).toMatchObject({ state: 'done', kind: 'full' });
  });

  it('reads the register from its zip archive, one region of it with --region', async () => {
    const root = path.join(dir, 'zipped');
    await writeGarTypeLists(root);
    await writeRegion(root, 96);
    await writeRegion(root, 97);
    const files: Record<string, Uint8Array> = {};
    for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true }))
      if (entry.isFile())
        files[path.relative(root, path.join(entry.parentPath, entry.name))] = fs.readFileSync(
          path.join(entry.parentPath, entry.name),
        );
    const archive = path.join(dir, 'gar_xml.zip');
    fs.writeFileSync(archive, zipSync(files));
    const result = await imports.importRegister(archive, { region: 97 });
    expect(result.version).toBe('2024-01-10');
    expect(Object.keys(result.regions)).toEqual(['97']);
    expect(
      await db().selectFrom('address_houses').select('object_id').where('region_code', '=', 97).execute(),
    ).toHaveLength(3);
    expect(
      await db().selectFrom('address_houses').select('object_id').where('region_code', '=', 96).execute(),
    ).toHaveLength(0);
    const notZip = await imports
      .importRegister(path.join(root, '96', fs.readdirSync(path.join(root, '96'))[0]))
      .catch((caught: unknown) => caught);
    expect((notZip as Error).message).toMatch(/neither a folder nor a ZIP archive/);
  });

  it('gives a house the coordinates of its OpenStreetMap building', async () => {
    const street = await db()
      .selectFrom('address_objects')
      .select('object_id')
      .where('region_code', '=', 77)
      .where('name', '=', 'Тверская')
      .executeTakeFirstOrThrow();
    const house = await db()
      .selectFrom('address_houses')
      .selectAll()
      .where('parent_id', '=', street.object_id)
      .orderBy('object_id')
      .executeTakeFirstOrThrow();
    const typed = [
      house.house_num,
      house.add_num1 ? ` корп. ${house.add_num1}` : '',
      house.add_num2 ? ` стр ${house.add_num2}` : '',
    ].join('');
    expect(typedHouseKey(typed)).toBe(house.search_key);
    const osm = path.join(dir, 'moscow.osm');
    fs.writeFileSync(
      osm,
      `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
 <node id="1" lat="55.7600" lon="37.6000"/>
 <node id="2" lat="55.7602" lon="37.6000"/>
 <node id="3" lat="55.7602" lon="37.6004"/>
 <node id="4" lat="55.7600" lon="37.6004"/>
 <node id="5" lat="55.7" lon="37.5"><tag k="addr:city" v="Москва"/><tag k="addr:street" v="Нет такой улицы"/><tag k="addr:housenumber" v="1"/></node>
 <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="1"/>
  <tag k="building" v="yes"/><tag k="addr:city" v="Москва"/><tag k="addr:street" v="Тверская улица"/><tag k="addr:housenumber" v="${typed}"/>
 </way>
</osm>`,
    );
    const result = await imports.importOsm(osm);
    expect(result).toMatchObject({ addressed: 2, matched: 1 });
    const located = await db()
      .selectFrom('address_houses')
      .selectAll()
      .where('object_id', '=', house.object_id)
      .executeTakeFirstOrThrow();
    expect(located.geo_precision).toBe('house');
    expect(Number(located.lat)).toBeCloseTo(55.7601, 4);
    expect(Number(located.lon)).toBeCloseTo(37.6002, 4);
  });

  it('keys names and house numbers as buyers type them', () => {
    expect(searchKey('  Садовая-Кудринская, ул. ')).toBe('садовая кудринская ул');
    expect(searchKey('Ёлочная')).toBe('елочная');
    expect(houseSearchKey('12', '2', '1')).toBe('12к2с1');
    expect(houseSearchKey('12', '1', null, 2)).toBe('12с1');
    for (const typed of ['12к2с1', '12 к2 с1', 'д. 12 корп. 2 стр. 1', '12 корпус 2 строение 1', '12К2С1'])
      expect(typedHouseKey(typed), typed).toBe('12к2с1');
    expect(typedHouseKey('12/2')).toBe('12/2');
    expect(typedHouseKey('7а')).toBe('7а');
    expect(typedHouseKey('7 А')).toBe('7а');
  });
});
