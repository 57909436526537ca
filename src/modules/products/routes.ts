import type { Readable } from 'node:stream';
import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { paging, PAGING_HEADERS, sendPage } from '../../platform/paging.js';
import { Created, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { ProductService } from './service.js';
import { MAX_IMPORT_ROWS, TEMPLATE_PATH } from './import/layout.js';
import { streamProductsXlsx } from './import/export.js';
import {
  ImportRequest,
  ImportResult,
  Product,
  ProductExportQuery,
  ProductInput,
  ProductListQuery,
  ProductPatch,
} from './schemas.js';

const tags = ['Products'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A 2000-row file is ~150 KB, ~200 KB in base64; leave room for photos' URLs and long names. */
const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

/** The services these routes use, and no other. */
export interface ProductsRouteServices {
  products: ProductService;
}
export function productRoutes(app: App, services: ProductsRouteServices): void {
  app.get(
    '/v2/products',
    {
      schema: {
        operation: { id: 'listProducts', contract: '4.6' },
        tags,
        summary: 'List products',
        description:
          'Newest first unless `sort` is given. Substring filters ignore case. Products are account-wide: a shop API key sees them too.',
        querystring: ProductListQuery,
        response: { 200: { ...Type.Array(Product), headers: PAGING_HEADERS }, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const at = paging(request.query);
      return sendPage(reply, await services.products.list(request.scope, request.query, at), at);
    },
  );

  app.get(
    TEMPLATE_PATH,
    {
      config: { public: true },
      schema: {
        operation: { id: 'getProductImportTemplate' },
        tags,
        summary: 'Download the product import template (xlsx)',
        description:
          'The column layout of POST /v2/products/import: row 1 names the columns, products follow from row 2. Public: no token needed.',
        security: [],
        produces: [XLSX],
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'products-import.xlsx' }),
        },
      },
    },
    async (_request, reply) =>
      reply
        .type(XLSX)
        .header('content-disposition', 'attachment; filename="products-import.xlsx"')
        .header('cache-control', 'public, max-age=3600')
        .send(await services.products.importTemplate()),
  );

  app.post(
    '/v2/products/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        operation: { id: 'importProducts', contract: '4.6' },
        tags,
        summary: 'Import products from an xlsx file',
        description:
          `\`file\` is the xlsx, base64-encoded, laid out as the template at ${TEMPLATE_PATH}. At most ${MAX_IMPORT_ROWS} product rows (more: 422, nothing imported). ` +
          'A row whose vendorCode exists overwrites that product. Bad rows are reported in `errors` by xlsx row number ({field, message}) and never stop good rows. ' +
          'A file that is not base64 or not an xlsx is a 400.',
        body: ImportRequest,
        response: { 200: ImportResult, ...errorResponses(413, 422) },
      },
    },
    async (request) => services.products.import(request.scope, request.body.file),
  );

  app.get(
    '/v2/products/export',
    {
      schema: {
        operation: { id: 'exportProducts' },
        tags,
        summary: 'Export the filtered products list to xlsx',
        description:
          'Every product GET /v2/products matches under the same filters and sort (no paging), streamed as an xlsx. ' +
          `The columns are the import's (${TEMPLATE_PATH}), so the file can be edited and imported back; a last column, quantity, is the available stock and is not imported.`,
        querystring: ProductExportQuery,
        produces: [XLSX],
        response: {
          200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'products.xlsx' }),
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const pages = services.products.exportPages(request.scope, request.query);
      return reply
        .type(XLSX)
        .header('content-disposition', 'attachment; filename="products.xlsx"')
        .header('cache-control', 'no-store')
        .send(streamProductsXlsx(pages));
    },
  );

  app.get(
    '/v2/products/:id',
    {
      schema: {
        operation: { id: 'getProduct', contract: '4.6' },
        tags,
        summary: 'Get a product',
        params: IdParams,
        response: { 200: Product, ...errorResponses(404) },
      },
    },
    async (request) => services.products.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/products',
    {
      schema: {
        operation: { id: 'createProduct', contract: '4.6' },
        tags,
        summary: 'Create a product',
        body: ProductInput,
        response: { 201: Created, ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.code(201).send({ id: await services.products.create(request.scope, request.body) }),
  );

  app.put(
    '/v2/products/:id',
    {
      schema: {
        operation: { id: 'replaceProduct', contract: '4.6' },
        tags,
        summary: 'Replace a product',
        description: 'Fields left out become empty.',
        params: IdParams,
        body: ProductInput,
        response: { 204: NoContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await services.products.replace(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.patch(
    '/v2/products/:id',
    {
      schema: {
        operation: { id: 'patchProduct', contract: '4.6' },
        tags,
        summary: 'Change part of a product',
        description: 'Only the fields sent change; null clears one.',
        params: IdParams,
        body: ProductPatch,
        response: { 204: NoContent, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await services.products.patch(request.scope, request.params.id, request.body);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/v2/products/:id',
    {
      schema: {
        operation: { id: 'deleteProduct', contract: '4.6' },
        tags,
        summary: 'Delete a product',
        description:
          'The product leaves the catalogue (its vendor code becomes free); kits and orders that use it keep showing it.',
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await services.products.delete(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );
}
