/**
 * Writes files in the federal address register's XML format (ГАР, as the gar_xml archive holds
 * them: a folder per region, the type lists at the root), for the shipped sample
 * (scripts/gar-sample.ts), the import bench's generated country and the tests. Rows are buffered
 * and written in large pieces; `settle()` waits for the disk so memory stays small at millions of rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';

const DATES = 'UPDATEDATE="2024-01-10" STARTDATE="2024-01-10" ENDDATE="2079-06-06"';
const FLUSH_BYTES = 1 << 20;

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

function attributes(values: Record<string, string | number | null | undefined>): string {
  let text = '';
  for (const [name, value] of Object.entries(values))
    if (value !== null && value !== undefined) text += ` ${name}="${escapeXml(String(value))}"`;
  return text;
}

class XmlFile {
  private buffer = '';
  private readonly stream: fs.WriteStream;

  constructor(
    file: string,
    private readonly root: string,
  ) {
    this.stream = fs.createWriteStream(file);
    this.buffer = `<?xml version="1.0" encoding="utf-8"?><${root}>`;
  }

  row(element: string, values: Record<string, string | number | null | undefined>, tail = ''): void {
    this.buffer += `<${element}${attributes(values)}${tail} />`;
    if (this.buffer.length > FLUSH_BYTES) this.flush();
  }

  private flush(): void {
    this.stream.write(this.buffer);
    this.buffer = '';
  }

  async settle(): Promise<void> {
    if (this.stream.writableNeedDrain) await once(this.stream, 'drain');
  }

  async close(): Promise<void> {
    this.buffer += `</${this.root}>`;
    this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

export interface GarObjectRow {
  objectId: number;
  guid: string;
  name: string;
  typeName: string;
  level: number;
  changeId?: number;
  actual?: boolean;
}

export interface GarHouseRow {
  objectId: number;
  guid: string;
  houseNum: string;
  houseType?: number;
  addNum1?: string | null;
  addType1?: number | null;
  addNum2?: string | null;
  addType2?: number | null;
  changeId?: number;
  actual?: boolean;
}

export interface GarFlatRow {
  objectId: number;
  guid: string;
  number: string;
  apartType?: number;
  changeId?: number;
  actual?: boolean;
}

/** The files of one region's folder, written row by row. */
export class GarRegionWriter {
  private recordId = 1;
  private readonly files: Record<string, XmlFile>;

  constructor(
    root: string,
    readonly region: number,
    date = '20240110',
  ) {
    const folder = path.join(root, String(region).padStart(2, '0'));
    fs.mkdirSync(folder, { recursive: true });
    const open = (prefix: string, rootElement: string): XmlFile =>
      new XmlFile(path.join(folder, `${prefix}_${date}_${guidOf(region * 1000 + hashOf(prefix))}.XML`), rootElement);
    this.files = {
      objects: open('AS_ADDR_OBJ', 'ADDRESSOBJECTS'),
      objectParams: open('AS_ADDR_OBJ_PARAMS', 'PARAMS'),
      houses: open('AS_HOUSES', 'HOUSES'),
      houseParams: open('AS_HOUSES_PARAMS', 'PARAMS'),
      flats: open('AS_APARTMENTS', 'APARTMENTS'),
      flatParams: open('AS_APARTMENTS_PARAMS', 'PARAMS'),
      adm: open('AS_ADM_HIERARCHY', 'ITEMS'),
      mun: open('AS_MUN_HIERARCHY', 'ITEMS'),
    };
  }

  private flags(actual: boolean | undefined): { ISACTUAL: number; ISACTIVE: number } {
    return actual === false ? { ISACTUAL: 0, ISACTIVE: 0 } : { ISACTUAL: 1, ISACTIVE: 1 };
  }

  object(row: GarObjectRow): void {
    this.files.objects.row(
      'OBJECT',
      {
        ID: this.recordId++,
        OBJECTID: row.objectId,
        OBJECTGUID: row.guid,
        CHANGEID: row.changeId ?? row.objectId,
        NAME: row.name,
        TYPENAME: row.typeName,
        LEVEL: row.level,
        OPERTYPEID: 1,
        PREVID: 0,
        NEXTID: 0,
      },
      ` ${DATES} ${attributes(this.flags(row.actual)).trim()}`,
    );
  }

  house(row: GarHouseRow): void {
    this.files.houses.row(
      'HOUSE',
      {
        ID: this.recordId++,
        OBJECTID: row.objectId,
        OBJECTGUID: row.guid,
        CHANGEID: row.changeId ?? row.objectId,
        HOUSENUM: row.houseNum,
        ADDNUM1: row.addNum1,
        ADDNUM2: row.addNum2,
        HOUSETYPE: row.houseType ?? 2,
        ADDTYPE1: row.addNum1 ? (row.addType1 ?? 1) : null,
        ADDTYPE2: row.addNum2 ? (row.addType2 ?? 2) : null,
        OPERTYPEID: 1,
        PREVID: 0,
        NEXTID: 0,
      },
      ` ${DATES} ${attributes(this.flags(row.actual)).trim()}`,
    );
  }

  flat(row: GarFlatRow): void {
    this.files.flats.row(
      'APARTMENT',
      {
        ID: this.recordId++,
        OBJECTID: row.objectId,
        OBJECTGUID: row.guid,
        CHANGEID: row.changeId ?? row.objectId,
        NUMBER: row.number,
        APARTTYPE: row.apartType ?? 2,
        OPERTYPEID: 1,
        PREVID: 0,
        NEXTID: 0,
      },
      ` ${DATES} ${attributes(this.flags(row.actual)).trim()}`,
    );
  }

  /** An item of the administrative hierarchy: `path` is the object ids from the region down, dot-separated. */
  adm(objectId: number, parentId: number, path: string, changeId = objectId): void {
    this.files.adm.row(
      'ITEM',
      {
        ID: this.recordId++,
        OBJECTID: objectId,
        PARENTOBJID: parentId,
        CHANGEID: changeId,
        REGIONCODE: String(this.region).padStart(2, '0'),
        PREVID: 0,
        NEXTID: 0,
      },
      ` ${DATES} ISACTIVE="1" PATH="${path}"`,
    );
  }

  mun(objectId: number, parentId: number, path: string, oktmo: string | null = null): void {
    this.files.mun.row(
      'ITEM',
      {
        ID: this.recordId++,
        OBJECTID: objectId,
        PARENTOBJID: parentId,
        CHANGEID: objectId,
        OKTMO: oktmo,
        PREVID: 0,
        NEXTID: 0,
      },
      ` ${DATES} ISACTIVE="1" PATH="${path}"`,
    );
  }

  /** A parameter (AS_PARAM_TYPES: 5 postcode, 6 OKATO, 7 OKTMO, 10 KLADR code) of an object, a house or a flat. */
  param(of: 'object' | 'house' | 'flat', objectId: number, typeId: number, value: string): void {
    const file =
      of === 'object' ? this.files.objectParams : of === 'house' ? this.files.houseParams : this.files.flatParams;
    file.row(
      'PARAM',
      {
        ID: this.recordId++,
        OBJECTID: objectId,
        CHANGEID: objectId,
        CHANGEIDEND: 0,
        TYPEID: typeId,
        VALUE: value,
      },
      ` ${DATES}`,
    );
  }

  async settle(): Promise<void> {
    for (const file of Object.values(this.files)) await file.settle();
  }

  async close(): Promise<void> {
    for (const file of Object.values(this.files)) await file.close();
  }
}

/** The type lists at the root, as the register has them (the part the service reads). */
export async function writeGarTypeLists(root: string, date = '20240110'): Promise<void> {
  fs.mkdirSync(root, { recursive: true });
  const list = async (
    prefix: string,
    rootElement: string,
    element: string,
    rows: Array<Record<string, string | number>>,
  ): Promise<void> => {
    const file = new XmlFile(path.join(root, `${prefix}_${date}_${guidOf(hashOf(prefix))}.XML`), rootElement);
    for (const row of rows) file.row(element, row, ` ${DATES} ISACTIVE="true"`);
    await file.close();
  };
  await list(
    'AS_ADDR_OBJ_TYPES',
    'ADDRESSOBJECTTYPES',
    'ADDRESSOBJECTTYPE',
    OBJECT_TYPES.map(([id, level, shortName, name]) => ({
      ID: id,
      LEVEL: level,
      SHORTNAME: shortName,
      NAME: name,
      DESC: name,
    })),
  );
  await list(
    'AS_HOUSE_TYPES',
    'HOUSETYPES',
    'HOUSETYPE',
    HOUSE_TYPES.map(([id, name, shortName]) => ({ ID: id, NAME: name, SHORTNAME: shortName, DESC: name })),
  );
  await list(
    'AS_ADDHOUSE_TYPES',
    'HOUSETYPES',
    'HOUSETYPE',
    ADDHOUSE_TYPES.map(([id, name, shortName]) => ({ ID: id, NAME: name, SHORTNAME: shortName, DESC: name })),
  );
  await list(
    'AS_APARTMENT_TYPES',
    'APARTMENTTYPES',
    'APARTMENTTYPE',
    APARTMENT_TYPES.map(([id, name, shortName]) => ({ ID: id, NAME: name, SHORTNAME: shortName, DESC: name })),
  );
  await list(
    'AS_OBJECT_LEVELS',
    'OBJECTLEVELS',
    'OBJECTLEVEL',
    OBJECT_LEVELS.map(([level, name]) => ({ LEVEL: level, NAME: name })),
  );
  await list(
    'AS_PARAM_TYPES',
    'PARAMTYPES',
    'PARAMTYPE',
    PARAM_TYPES.map(([id, code, name]) => ({ ID: id, NAME: name, CODE: code, DESC: name })),
  );
  fs.writeFileSync(path.join(root, 'version.txt'), `${date.slice(0, 4)}.${date.slice(4, 6)}.${date.slice(6, 8)}\n`);
}

function hashOf(text: string): number {
  let hash = 0;
  for (const char of text) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) >>> 0;
  return hash % 1_000_000;
}

/** A deterministic id in the register's GUID form (version 4 layout) from a number: made up, never the register's. */
export function guidOf(seed: number): string {
  let state = (seed * 2654435761) >>> 0;
  let hex = '';
  for (let i = 0; i < 32; i++) {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x6d2b79f5 + i) >>> 0;
    hex += ((state >>> 28) & 15).toString(16);
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** AS_ADDR_OBJ_TYPES (a part): id, level, short name, name. */
const OBJECT_TYPES: Array<[number, number, string, string]> = [
  [1, 1, 'г', 'Город'],
  [2, 1, 'обл', 'Область'],
  [3, 1, 'Респ', 'Республика'],
  [4, 1, 'край', 'Край'],
  [5, 5, 'г', 'Город'],
  [6, 6, 'пгт', 'Поселок городского типа'],
  [7, 6, 'с', 'Село'],
  [8, 6, 'д', 'Деревня'],
  [9, 6, 'п', 'Поселок'],
  [10, 7, 'мкр', 'Микрорайон'],
  [11, 7, 'тер', 'Территория'],
  [12, 8, 'ул', 'Улица'],
  [13, 8, 'пр-кт', 'Проспект'],
  [14, 8, 'пер', 'Переулок'],
  [15, 8, 'б-р', 'Бульвар'],
  [16, 8, 'ш', 'Шоссе'],
  [17, 8, 'наб', 'Набережная'],
  [18, 8, 'пл', 'Площадь'],
  [19, 8, 'проезд', 'Проезд'],
  [20, 8, 'туп', 'Тупик'],
  [21, 8, 'аллея', 'Аллея'],
  [22, 8, 'линия', 'Линия'],
];
const HOUSE_TYPES: Array<[number, string, string]> = [
  [1, 'Владение', 'влд.'],
  [2, 'Дом', 'д.'],
  [3, 'Домовладение', 'двлд.'],
  [4, 'Гараж', 'г-ж'],
  [5, 'Здание', 'зд.'],
  [6, 'Шахта', 'шахта'],
  [7, 'Строение', 'стр.'],
  [8, 'Сооружение', 'соор.'],
  [9, 'Литера', 'литера'],
  [10, 'Корпус', 'к.'],
  [11, 'Подвал', 'подв.'],
  [12, 'Котельная', 'кот.'],
  [13, 'Погреб', 'п-б'],
  [14, 'Объект незавершенного строительства', 'ОНС'],
];
const ADDHOUSE_TYPES: Array<[number, string, string]> = [
  [1, 'Корпус', 'к.'],
  [2, 'Строение', 'стр.'],
  [3, 'Сооружение', 'соор.'],
  [4, 'Литера', 'лит.'],
];
const APARTMENT_TYPES: Array<[number, string, string]> = [
  [1, 'Помещение', 'помещ.'],
  [2, 'Квартира', 'кв.'],
  [3, 'Офис', 'оф.'],
  [4, 'Комната', 'комн.'],
  [5, 'Рабочий участок', 'раб.уч.'],
  [6, 'Склад', 'скл.'],
  [7, 'Торговый зал', 'торг.зал'],
  [8, 'Цех', 'цех'],
  [9, 'Павильон', 'пав.'],
  [10, 'Подвал', 'подв.'],
  [11, 'Котельная', 'кот.'],
  [12, 'Погреб', 'п-б'],
  [13, 'Гараж', 'г-ж'],
];
const OBJECT_LEVELS: Array<[number, string]> = [
  [1, 'Субъект РФ'],
  [2, 'Административный район'],
  [3, 'Муниципальный район'],
  [4, 'Сельское/городское поселение'],
  [5, 'Город'],
  [6, 'Населенный пункт'],
  [7, 'Элемент планировочной структуры'],
  [8, 'Элемент улично-дорожной сети'],
  [9, 'Земельный участок'],
  [10, 'Здание (сооружение)'],
  [11, 'Помещение'],
];
const PARAM_TYPES: Array<[number, string, string]> = [
  [1, 'IFNSFL', 'ИФНС ФЛ'],
  [2, 'territorialifnsflcode', 'Территориальный участок ИФНС ФЛ'],
  [3, 'IFNSUL', 'ИФНС ЮЛ'],
  [4, 'territorialifnsulcode', 'Территориальный участок ИФНС ЮЛ'],
  [5, 'PostIndex', 'Почтовый индекс'],
  [6, 'OKATO', 'OKATO'],
  [7, 'OKTMO', 'OKTMO'],
  [8, 'CadastrNum', 'Кадастровый номер'],
  [10, 'CODE', 'Код КЛАДР'],
  [11, 'PLAINCODE', 'Код КЛАДР без признака актуальности'],
];
