/** Stock at the fulfilment warehouses: per product and warehouse on hand, reserved and free, low stock marked under a threshold of the page. */
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Text,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { api, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DateField } from '../../components/DateField';
import { todayIn } from '../../format';
import { useText } from '../../i18n';
import { fileHref } from '../../reference';
import { useSignedIn } from '../../session';
import { useFulfilmentWarehouses } from '../../hooks/use-fulfilment-warehouses';
import { useList } from '../../hooks/use-list';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import type { Schemas } from '../../api';

type Product = Schemas['Product'];
interface StockRow {
  product: Product;
  rest: Product['rests'][number];
}

const PER_PAGE = 50;

/** The movement report (xlsx) of the products on the page for a period. */
function MovementReport({ productIds }: { productIds: number[] }) {
  const { t } = useText();
  const session = useSignedIn();
  const [from, setFrom] = useState<string | null>(todayIn(session.timeZone).slice(0, 8) + '01');
  const [to, setTo] = useState<string | null>(todayIn(session.timeZone));
  const [file, setFile] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const order = async () => {
    setError(null);
    setFile(null);
    try {
      setFile(
        ok(
          await api.POST('/v2/products/movement-report', {
            body: { date: { from: from ?? '', to: to ?? '' }, ids: productIds },
          }),
        ).file,
      );
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Card withBorder>
      <Title order={3} size="h5">
        {t('movementPeriod')}
      </Title>
      <Text size="sm" mb="xs">
        {t('allProductsOnPage', { count: productIds.length })}
      </Text>
      <Group align="end">
        <DateField label={t('periodFrom')} value={from} onChange={setFrom} />
        <DateField label={t('periodTo')} value={to} onChange={setTo} />
        <Button onClick={() => void order()} disabled={productIds.length === 0} data-testid="movement-report">
          {t('movementReport')}
        </Button>
        {file && (
          <Anchor href={fileHref(file)} data-testid="movement-report-file">
            xlsx
          </Anchor>
        )}
      </Group>
      <ApiError error={error} />
    </Card>
  );
}

export function StockPage() {
  const { t } = useText();
  const warehouses = useFulfilmentWarehouses();
  const [chosenWarehouse, setWarehouseId] = useState<string | null>(null);
  // stock is by warehouse: the first one until another is chosen (the list holds only goods kept there)
  const warehouseId = chosenWarehouse ?? (warehouses[0] ? String(warehouses[0].id) : null);
  const [search, setSearch] = useState('');
  const [name] = useDebouncedValue(search, 300);
  const [low, setLow] = useState<number | string>(10);
  const [page, setPage] = useState(1);
  const query = {
    page,
    perPage: PER_PAGE,
    ...(name ? { name } : {}),
    ...(warehouseId ? { fulfilmentWarehouseId: Number(warehouseId) } : {}),
  };
  const products = useList(
    async () =>
      warehouseId ? api.GET('/v2/products', { params: { query } }) : { data: [], response: new Response(null) },
    JSON.stringify(query),
  );
  const threshold = Number(low) || 0;
  const rows = (products.data ?? []).flatMap((product) =>
    product.rests
      .filter((rest) => !warehouseId || rest.warehouseId === Number(warehouseId))
      .map((rest) => ({ product, rest })),
  );

  const columns: Array<DataTableColumn<StockRow>> = [
    { key: 'name', header: t('name'), cell: ({ product }) => product.name },
    { key: 'vendorCode', header: t('vendorCode'), cell: ({ product }) => product.vendorCode },
    { key: 'warehouse', header: t('fulfilmentWarehouse'), cell: ({ rest }) => rest.name },
    { key: 'onHand', header: t('onHand'), cell: ({ rest }) => rest.quantity },
    {
      key: 'reserved',
      header: t('reserved'),
      cell: ({ rest }) => rest.reserved,
      cellProps: () => ({ 'data-testid': 'reserved' }),
    },
    {
      key: 'free',
      header: t('free'),
      cell: ({ rest }) => (
        <>
          <span data-testid="free">{rest.available}</span>{' '}
          {rest.available < threshold && <Badge color="red.9">{t('lowStock')}</Badge>}
        </>
      ),
    },
  ];

  return (
    <Stack>
      <Title order={2}>{t('stock')}</Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label={t('fulfilmentWarehouse')}
          value={warehouseId}
          onChange={setWarehouseId}
          data={warehouses.map((warehouse) => ({ value: String(warehouse.id), label: warehouse.name }))}
        />
        <TextInput
          label={t('searchProducts')}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <NumberInput label={t('lowStockBelow')} value={low} onChange={setLow} min={0} />
      </SimpleGrid>
      <ApiError error={products.error} />
      <MovementReport productIds={[...new Set(rows.map(({ product }) => product.id))]} />
      <DataTable
        testId="stock"
        columns={columns}
        rows={products.data === null ? null : rows}
        rowKey={({ product, rest }) => `${product.id}-${rest.warehouseId}`}
        rowProps={({ product }) => ({ 'data-testid': `stock-${product.vendorCode}` })}
        labels={{ empty: t('nothingYet'), total: (count) => t('totalCount', { count }) }}
        paging={{ page, perPage: PER_PAGE, total: products.total, onPage: setPage }}
        minWidth={600}
      />
    </Stack>
  );
}
