/** Stock at the fulfilment warehouses: per product and warehouse on hand, reserved and free, low stock marked under a threshold of the page. */
import { Badge, NumberInput, Pagination, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { api } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useText } from '../../i18n';
import { useFulfilmentWarehouses, useList } from '../../part2/use-list';

const PER_PAGE = 50;

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
  const query = { page, perPage: PER_PAGE, ...(name ? { name } : {}), ...(warehouseId ? { fulfilmentWarehouseId: Number(warehouseId) } : {}) };
  const products = useList(async () => (warehouseId ? api.GET('/v2/products', { params: { query } }) : { data: [], response: new Response(null) }), JSON.stringify(query));
  const threshold = Number(low) || 0;
  const rows = (products.data ?? []).flatMap((product) =>
    product.rests.filter((rest) => !warehouseId || rest.warehouseId === Number(warehouseId)).map((rest) => ({ product, rest })),
  );

  return (
    <Stack>
      <Title order={2}>{t('stock')}</Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select label={t('fulfilmentWarehouse')} value={warehouseId} onChange={setWarehouseId} data={warehouses.map((warehouse) => ({ value: String(warehouse.id), label: warehouse.name }))} />
        <TextInput label={t('searchProducts')} value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
        <NumberInput label={t('lowStockBelow')} value={low} onChange={setLow} min={0} />
      </SimpleGrid>
      <ApiError error={products.error} />
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
                  {rest.available < threshold && (
                    <Badge color="red.9">
                      {t('lowStock')}
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && <Text c="gray.7">{t('nothingYet')}</Text>}
      {products.total > PER_PAGE && <Pagination value={page} onChange={setPage} total={Math.ceil(products.total / PER_PAGE)} siblings={1} getControlProps={(control) => ({ 'aria-label': String(control) })} />}
    </Stack>
  );
}
