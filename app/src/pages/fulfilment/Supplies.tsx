/** Supplies to a fulfilment warehouse: a draft with its goods and places, confirm, delete a draft, the act PDF, and what the warehouse counted once accepted. */
import { Badge, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DateField } from '../../components/DateField';
import { formatDay, todayIn } from '../../format';
import { useText } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { useFulfilmentWarehouses } from '../../hooks/use-fulfilment-warehouses';
import { useList } from '../../hooks/use-list';
import { ProductPicker } from '../catalogue/ProductPicker';
import { fileHref } from '../../reference';
import { useSignedIn } from '../../session';

type Supply = Schemas['Supply'];
interface Line {
  productId: string | null;
  count: number | string;
}

function NewSupply({ created }: { created(): void }) {
  const { t } = useText();
  const session = useSignedIn();
  const warehouses = useFulfilmentWarehouses();
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [warehouseId, setWarehouseId] = useState<string | null>(null);
  const [date, setDate] = useState<string | null>(todayIn(session.timeZone));
  const [places, setPlaces] = useState<number | string>(1);
  const [type, setType] = useState<'boxes' | 'pallets'>('boxes');
  const [lines, setLines] = useState<Line[]>([{ productId: null, count: 1 }]);
  const [error, setError] = useState<unknown>(null);
  const chosenWarehouse = warehouseId ?? (warehouses[0] ? String(warehouses[0].id) : null);

  const create = async () => {
    setError(null);
    try {
      ok(
        await api.POST('/v2/products/shipments', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: {
            date: date ?? '',
            fulfilmentWarehouseId: Number(chosenWarehouse),
            places: Number(places),
            type,
            products: lines
              .filter((line) => line.productId)
              .map((line) => ({ id: Number(line.productId), count: Number(line.count) })),
          },
        }),
      );
      setLines([{ productId: null, count: 1 }]);
      created();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('newSupply')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <Select
          label={t('fulfilmentWarehouse')}
          value={chosenWarehouse}
          onChange={setWarehouseId}
          data={warehouses.map((warehouse) => ({ value: String(warehouse.id), label: warehouse.name }))}
        />
        <DateField label={t('date')} value={date} onChange={setDate} />
        <NumberInput label={t('places')} value={places} onChange={setPlaces} min={1} />
        <Select
          label={t('placesType')}
          value={type}
          onChange={(value) => setType(value === 'pallets' ? 'pallets' : 'boxes')}
          data={[
            { value: 'boxes', label: t('boxes') },
            { value: 'pallets', label: t('pallets') },
          ]}
        />
      </SimpleGrid>
      {lines.map((line, index) => (
        <Group key={index} grow mt="xs" align="end">
          <ProductPicker
            label={`${t('product')} ${index + 1}`}
            value={line.productId}
            known={chosen}
            onChange={(productId, label) => {
              if (productId) setChosen({ ...chosen, [productId]: label ?? productId });
              setLines(lines.map((other, at) => (at === index ? { ...other, productId } : other)));
            }}
            testId={`supply-product-${index}`}
          />
          <NumberInput
            label={`${t('count')} ${index + 1}`}
            value={line.count}
            min={1}
            onChange={(value) =>
              setLines(lines.map((other, at) => (at === index ? { ...other, count: value } : other)))
            }
          />
        </Group>
      ))}
      <Group mt="sm">
        <Button variant="default" onClick={() => setLines([...lines, { productId: null, count: 1 }])}>
          {t('addLine')}
        </Button>
        <Button onClick={() => void create()} data-testid="create-supply">
          {t('create')}
        </Button>
      </Group>
      <ApiError error={error} />
    </Card>
  );
}

function SupplyRow({ supply, changed }: { supply: Supply; changed(): void }) {
  const { t, locale } = useText();
  const action = useAction();
  const error = action.error;
  const run = async (call: () => Promise<unknown>) => {
    if (!(await action.run(call))) return;
    changed();
  };
  const last = supply.statusHistory[0]; // newest first
  const draft = supply.status === 1;
  return (
    <Table.Tr data-testid={`supply-${supply.id}`}>
      <Table.Td>{supply.id}</Table.Td>
      <Table.Td>{formatDay(supply.date, locale)}</Table.Td>
      <Table.Td>{supply.warehouse.name}</Table.Td>
      <Table.Td>
        <Badge variant="light" data-testid="supply-status">
          {last?.name ?? supply.status}
        </Badge>
        {supply.hasDiscrepancies && (
          <Badge color="red.9" ml={4}>
            ≠
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {supply.products.map((line) => (
          <Text key={`${line.id}-${line.batch ?? ''}`} size="xs">
            {line.vendorCode}: {line.count}
            {line.accepted !== null && ` → ${t('accepted')} ${line.accepted}, ${t('damaged')} ${line.damaged ?? 0}`}
          </Text>
        ))}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {supply.file && (
            <Button component="a" size="xs" variant="default" href={fileHref(supply.file)} target="_blank">
              {t('supplyAct')}
            </Button>
          )}
          {draft && (
            <>
              <Button
                size="xs"
                onClick={() =>
                  void run(async () =>
                    ok(
                      await api.POST('/v2/products/shipments/confirm', {
                        params: { header: { 'Idempotency-Key': idempotencyKey() } },
                        body: { id: supply.id },
                      }),
                    ),
                  )
                }
              >
                {t('confirm')}
              </Button>
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() =>
                  void run(async () => ok(await api.DELETE('/v2/products/shipments', { body: { id: supply.id } })))
                }
              >
                {t('delete')}
              </Button>
            </>
          )}
        </Group>
        <ApiError error={error} />
      </Table.Td>
    </Table.Tr>
  );
}

export function SuppliesPage() {
  const { t } = useText();
  const supplies = useList(
    () => api.GET('/v2/products/shipments', { params: { query: { perPage: 100 } } }),
    'supplies',
  );
  return (
    <Stack>
      <Title order={2}>{t('supplies')}</Title>
      <NewSupply created={supplies.reload} />
      <ApiError error={supplies.error} />
      <Table.ScrollContainer minWidth={700}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>{t('date')}</Table.Th>
              <Table.Th>{t('fulfilmentWarehouse')}</Table.Th>
              <Table.Th>{t('status')}</Table.Th>
              <Table.Th>{t('product')}</Table.Th>
              <Table.Th>{t('open')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(supplies.data ?? []).map((supply) => (
              <SupplyRow key={`${supply.id}-${supply.status}`} supply={supply} changed={supplies.reload} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
