/**
 * The column layout of the product import file. Row 1 holds the field names below (the
 * same names as the API's Product fields); columns may come in any order and unknown
 * columns are ignored. Products start on row 2.
 */
export interface ImportColumn {
  /** Header text in row 1, and the API field path reported in row errors. */
  key: string;
  required: boolean;
  description: string;
  example: string | number;
  width: number;
}

export const IMPORT_COLUMNS: readonly ImportColumn[] = [
  {
    key: 'vendorCode',
    required: true,
    description: 'Vendor code (SKU), unique in the account. A known code overwrites that product.',
    example: 'TSHIRT-RED-M',
    width: 18,
  },
  { key: 'name', required: true, description: 'Name', example: 'Футболка красная, M', width: 30 },
  {
    key: 'nameEn',
    required: false,
    description: 'English name (international post)',
    example: 'Red T-shirt, M',
    width: 22,
  },
  { key: 'vat', required: false, description: 'VAT percent: 0, 10 or 20', example: 20, width: 8 },
  { key: 'priceDeclared', required: false, description: 'Insured value, roubles', example: 1500, width: 14 },
  { key: 'priceCod', required: false, description: 'Price, roubles', example: 1990.5, width: 12 },
  { key: 'weight', required: false, description: 'Weight, kg, to the gram (at least 0.001)', example: 0.25, width: 10 },
  { key: 'volume', required: false, description: 'Volume, m3', example: 0.0015, width: 10 },
  { key: 'dimensions.width', required: false, description: 'Width, cm, whole number 1 to 999', example: 20, width: 16 },
  {
    key: 'dimensions.height',
    required: false,
    description: 'Height, cm, whole number 1 to 999',
    example: 3,
    width: 17,
  },
  {
    key: 'dimensions.length',
    required: false,
    description: 'Length, cm, whole number 1 to 999',
    example: 25,
    width: 17,
  },
  { key: 'expirityDays', required: false, description: 'Shelf life, days, 1 to 999', example: 365, width: 13 },
  {
    key: 'photo',
    required: false,
    description: 'Photo URL (http or https)',
    example: 'https://example.com/tshirt.jpg',
    width: 30,
  },
  { key: 'tnved', required: false, description: 'Customs code (TN VED)', example: '6109100000', width: 13 },
  {
    key: 'barcodes',
    required: false,
    description: 'Barcodes, separated by commas',
    example: '4601234567890, 4601234567891',
    width: 30,
  },
  { key: 'brand', required: false, description: 'Brand', example: 'МойБренд', width: 14 },
  {
    key: 'producingCountry',
    required: false,
    description: 'Country of origin, two-letter code',
    example: 'RU',
    width: 17,
  },
  { key: 'markCodeRequired', required: false, description: 'Needs a marking code: 1 or 0', example: 0, width: 18 },
  { key: 'batchAccounting', required: false, description: 'Batch accounting: 1 or 0', example: 0, width: 16 },
];

export const MAX_IMPORT_ROWS = 2000;
export const IMPORT_SHEET_NAME = 'Products';
export const TEMPLATE_PATH = '/v2/products/import/template';
