/** Stock at the fulfilment warehouses: per product and warehouse on hand, reserved and free, low stock marked under a threshold of the page. */
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { api, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { todayIn } from '../../format';
import { useText } from '../../i18n';
import { fileHref } from '../../reference';
import { useSignedIn } from '../../session';
import { useFulfilmentWarehouses, useList } from '../../part2/use-list';

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
      <Group align="end">
        <DateInput label={t('dateFrom')} value={from} onChange={setFrom} valueFormat="YYYY-MM-DD" />
        <DateInput label={t('dateTo')} value={to} onChange={setTo} valueFormat="YYYY-MM-DD" />
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
      <Table.ScrollContainer minWidth={600}>
        <Table striped data-testid="stock">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('name')}</Table.Th>
              <Table.Th>{t('vendorCode')}</Table.Th>
              <Table.Th>{t('fulfilmentWarehouse')}</Table.Th>
              <Table.Th>{t('onHand')}</Table.Th>
              <Table.Th>{t('reserved')}</Table.Th>
              <Table.Th>{t('free')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(({ product, rest }) => (
              <Table.Tr key={`${product.id}-${rest.warehouseId}`} data-testid={`stock-${product.vendorCode}`}>
                <Table.Td>{product.name}</Table.Td>
                <Table.Td>{product.vendorCode}</Table.Td>
                <Table.Td>{rest.name}</Table.Td>
                <Table.Td>{rest.quantity}</Table.Td>
                <Table.Td data-testid="reserved">{rest.reserved}</Table.Td>
                <Table.Td>
                  <span data-testid="free">{rest.available}</span>{' '}
                  {rest.available < threshold && <Badge color="red.9">{t('lowStock')}</Badge>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && <Text c="gray.7">{t('nothingYet')}</Text>}
      {products.total > PER_PAGE && (
        <Pagination
          value={page}
          onChange={setPage}
          total={Math.ceil(products.total / PER_PAGE)}
          siblings={1}
          getControlProps={(control) => ({ 'aria-label': String(control) })}
        />
      )}
    </Stack>
  );
}
