/**
 * Products: the filters, sort and search of GET /v2/products with server-side paging; a new
 * product; edit (a drawer, ProductEditor); delete; the export of the filtered list to xlsx; the xlsx import (the template to download, the stage shown while it runs,
 * every bad row with its row number, column and message).
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  FileButton,
  Group,
  NumberInput,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { operations } from '../../../../clients/typescript/src/index';
import { api, idempotencyKey, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatMoney } from '../../format';
import { useText } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { useFulfilmentWarehouses } from '../../hooks/use-fulfilment-warehouses';
import { useList } from '../../hooks/use-list';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ProductEditor } from './ProductEditor';

type Product = operations['listProducts']['responses'][200]['content']['application/json'][number];

/** Hands a downloaded file to the browser's save (an object URL, let go once clicked). */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

type ImportResult = operations['importProducts']['responses'][200]['content']['application/json'];
const PER_PAGE = 50;
const SORTS = ['id', 'name', 'vendorCode', 'priceDeclared', 'priceCod', 'weight', 'brand', 'tnved'] as const;
type Sort = (typeof SORTS)[number];

/** The file as base64, read by the browser (the import takes the xlsx base64-encoded). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

function ImportCard({ imported }: { imported(): void }) {
  const { t } = useText();
  const [stage, setStage] = useState<'idle' | 'reading' | 'importing'>('idle');
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = async (file: File | null) => {
    if (!file) return;
    setResult(null);
    setError(null);
    try {
      setStage('reading');
      const base64 = await base64Of(file);
      setStage('importing');
      setResult(
        ok(
          await api.POST('/v2/products/import', {
            params: { header: { 'Idempotency-Key': idempotencyKey() } },
            body: { file: base64 },
          }),
        ),
      );
      imported();
    } catch (caught) {
      setError(caught);
    } finally {
      setStage('idle');
    }
  };
  const bad = result ? Object.entries(result.errors).sort(([a], [b]) => Number(a) - Number(b)) : [];

  return (
    <Card withBorder>
      <Group justify="space-between">
        <Title order={3} size="h5">
          {t('importXlsx')}
        </Title>
        <Group gap="xs">
          <Button component="a" href="/v2/products/import/template" variant="default" size="xs" download>
            {t('template')}
          </Button>
          <FileButton
            onChange={(file) => void run(file)}
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          >
            {(props) => (
              <Button {...props} size="xs" loading={stage !== 'idle'} data-testid="import-file">
                {t('importXlsx')}
              </Button>
            )}
          </FileButton>
        </Group>
      </Group>
      {stage !== 'idle' && (
        <Stack gap={4} mt="sm" role="status">
          <Text size="sm">{t('importing')}</Text>
          <Progress value={stage === 'reading' ? 30 : 70} animated aria-label={t('importing')} />
        </Stack>
      )}
      <ApiError error={error} />
      {result && (
        <Stack mt="sm" gap="xs">
          <Alert color={bad.length ? 'yellow' : 'green'} data-testid="import-result">
            {t('importDone', { success: result.success, total: result.total })}
          </Alert>
          {bad.length > 0 && (
            <Table.ScrollContainer minWidth={400} mah={320}>
              <Table striped data-testid="import-errors" aria-label={t('badRows')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('row')}</Table.Th>
                    <Table.Th>{t('column')}</Table.Th>
                    <Table.Th>{t('message')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {bad.map(([row, problem]) => (
                    <Table.Tr key={row}>
                      <Table.Td>{row}</Table.Td>
                      <Table.Td>{problem.field}</Table.Td>
                      <Table.Td>{problem.message}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Card>
  );
}

function NewProduct({ created }: { created(): void }) {
  const { t } = useText();
  const [name, setName] = useState('');
  const [vendorCode, setVendorCode] = useState('');
  const [price, setPrice] = useState<number | string>('');
  const [weight, setWeight] = useState<number | string>('');
  const [error, setError] = useState<unknown>(null);
  const create = async () => {
    setError(null);
    try {
      ok(
        await api.POST('/v2/products', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: {
            name,
            vendorCode,
            priceDeclared: price === '' ? 0 : Number(price),
            weight: weight === '' ? null : Number(weight),
          },
        }),
      );
      setName('');
      setVendorCode('');
      created();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('newProduct')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <TextInput label={t('name')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <TextInput
          label={t('vendorCode')}
          value={vendorCode}
          onChange={(event) => setVendorCode(event.currentTarget.value)}
        />
        <NumberInput label={t('priceDeclared')} value={price} onChange={setPrice} min={0} />
        <NumberInput label={t('weight')} value={weight} onChange={setWeight} min={0} decimalScale={3} />
      </SimpleGrid>
      <Group mt="sm">
        <Button onClick={() => void create()}>{t('create')}</Button>
      </Group>
      <ApiError error={error} />
    </Card>
  );
}

export function ProductsPage() {
  const { t, locale } = useText();
  const fulfilment = useFulfilmentWarehouses();
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search, 300);
  const [vendorCode, setVendorCode] = useState('');
  const [barcode, setBarcode] = useState('');
  const [warehouseId, setWarehouseId] = useState<string | null>(null);
  const [sort, setSort] = useState<Sort | null>(null);
  const [desc, setDesc] = useState(false);
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [name, vendorCode, barcode, warehouseId, sort, desc]);
  const query = {
    page,
    perPage: PER_PAGE,
    ...(name ? { name } : {}),
    ...(vendorCode ? { vendorCode } : {}),
    ...(barcode ? { barcode } : {}),
    ...(warehouseId ? { fulfilmentWarehouseId: Number(warehouseId) } : {}),
    ...(sort ? { sort, desc } : {}),
  };
  const list = useList(() => api.GET('/v2/products', { params: { query } }), JSON.stringify(query));
  const { data: products, total, reload } = list;
  const removal = useAction();

  const [editing, setEditing] = useState<number | null>(null);
  const exporting = useAction();
  const [exportBusy, setExportBusy] = useState(false);
  // the page's filters and sort without its paging: every match goes in the file
  const { page: _page, perPage: _perPage, ...filters } = query;
  const download = async () => {
    setExportBusy(true);
    await exporting.run(async () => {
      const { data, error, response } = await api.GET('/v2/products/export', {
        params: { query: filters },
        parseAs: 'blob',
      });
      if (error !== undefined || !data) ok({ data: undefined, error, response });
      else saveFile(data as Blob, 'products.xlsx');
    });
    setExportBusy(false);
  };
  const columns: Array<DataTableColumn<Product>> = [
    { key: 'id', header: '#', cell: (product) => product.id },
    { key: 'name', header: t('name'), cell: (product) => product.name },
    { key: 'vendorCode', header: t('vendorCode'), cell: (product) => product.vendorCode },
    { key: 'barcodes', header: t('barcode'), cell: (product) => product.barcodes.join(', ') },
    { key: 'price', header: t('priceDeclared'), cell: (product) => formatMoney(product.priceDeclared, locale) },
    {
      key: 'quantity',
      header: t('quantity'),
      cell: (product) => (product.quantity === null ? '—' : <Badge>{product.quantity}</Badge>),
    },
    {
      key: 'actions',
      header: t('actions'),
      cell: (product) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            onClick={() => setEditing(product.id)}
            aria-label={`${t('edit')} ${product.vendorCode}`}
            data-testid={`edit-product-${product.vendorCode}`}
          >
            {t('edit')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={() => void remove(product.id)}
            aria-label={`${t('delete')} ${product.vendorCode}`}
          >
            {t('delete')}
          </Button>
        </Group>
      ),
    },
  ];

  const remove = async (id: number) => {
    if (await removal.run(async () => ok(await api.DELETE('/v2/products/{id}', { params: { path: { id } } }))))
      reload();
  };

  return (
    <Stack>
      <Title order={2}>{t('catalogue')}</Title>
      <ImportCard imported={reload} />
      <NewProduct created={reload} />
      <SimpleGrid cols={{ base: 1, sm: 3, lg: 6 }}>
        <TextInput
          label={t('searchProducts')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          data-testid="product-search"
        />
        <TextInput
          label={t('vendorCode')}
          value={vendorCode}
          onChange={(event) => setVendorCode(event.currentTarget.value)}
        />
        <TextInput label={t('barcode')} value={barcode} onChange={(event) => setBarcode(event.currentTarget.value)} />
        <Select
          label={t('fulfilmentWarehouse')}
          clearable
          value={warehouseId}
          onChange={setWarehouseId}
          data={fulfilment.map((warehouse) => ({ value: String(warehouse.id), label: warehouse.name }))}
        />
        <Select
          label={t('sortBy')}
          clearable
          value={sort}
          onChange={(value) => setSort((value as Sort | null) ?? null)}
          data={SORTS.map((field) => ({ value: field, label: field }))}
        />
        <Checkbox
          label={t('descending')}
          checked={desc}
          onChange={(event) => setDesc(event.currentTarget.checked)}
          mt="xl"
        />
      </SimpleGrid>
      <Group>
        <Button variant="default" onClick={() => void download()} loading={exportBusy} data-testid="export-products">
          {t('exportXlsx')}
        </Button>
      </Group>
      <ApiError error={list.error ?? removal.error ?? exporting.error} />
      <DataTable
        testId="products"
        columns={columns}
        rows={products}
        rowKey={(product) => product.id}
        rowProps={(product) => ({ 'data-product': String(product.id) })}
        labels={{ empty: t('nothingYet'), total: (count) => t('totalCount', { count }) }}
        paging={{ page, perPage: PER_PAGE, total, onPage: setPage }}
      />
      <ProductEditor productId={editing} onClose={() => setEditing(null)} onSaved={reload} />
    </Stack>
  );
}
