/** Pickups: book a courier or the consolidated pickup for a warehouse and day (companies, prices, free threshold); the list and archive; cancel; the handover act. */
import {
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Radio,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import type { operations } from '../../../../clients/typescript/src/index';
import { api, idempotencyKey, ok, totalOf } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DateField } from '../../components/DateField';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatDay, formatMoney, todayIn } from '../../format';
import { useText } from '../../i18n';
import { fileHref, useReference } from '../../reference';
import { useSignedIn } from '../../session';

type Pickup = operations['listPickups']['responses'][200]['content']['application/json'][number];
type PickupCompany = { id: number; name: string; price: number; countFree: number; commentAvailable: boolean };

function BookPickup({ booked }: { booked(): void }) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const reference = useReference(locale);
  const [warehouseId, setWarehouseId] = useState<number | null>(null);
  const [type, setType] = useState<3 | 4>(4);
  const [companies, setCompanies] = useState<PickupCompany[]>([]);
  const [companyId, setCompanyId] = useState<number | null>(null);
  const [date, setDate] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (warehouseId === null && reference?.warehouses[0]) setWarehouseId(reference.warehouses[0].id);
  }, [reference, warehouseId]);
  useEffect(() => {
    if (warehouseId === null) return;
    let live = true;
    setCompanyId(null);
    api.GET('/v2/pickups/companies', { params: { query: { warehouseId, type } } }).then(
      (result) => {
        if (!live) return;
        try {
          setCompanies(ok(result) as PickupCompany[]);
          setError(null);
        } catch (caught) {
          setCompanies([]);
          setError(caught);
        }
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [warehouseId, type]);

  const book = async () => {
    if (warehouseId === null || companyId === null || !date) return;
    setBusy(true);
    setError(null);
    try {
      ok(
        await api.POST('/v2/pickups', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: { warehouseId, companyId, type, date, comment: comment || null },
        }),
      );
      booked();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('bookPickup')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label={t('warehouse')}
          value={warehouseId ? String(warehouseId) : null}
          onChange={(value) => setWarehouseId(value ? Number(value) : null)}
          data={(reference?.warehouses ?? []).map((warehouse) => ({
            value: String(warehouse.id),
            label: warehouse.name,
          }))}
        />
        <Select
          label={t('pickupType')}
          value={String(type)}
          onChange={(value) => setType(value === '3' ? 3 : 4)}
          data={[
            { value: '4', label: t('pickupType4') },
            { value: '3', label: t('pickupType3') },
          ]}
        />
        <DateField
          label={t('pickupDate')}
          minDate={todayIn(session.timeZone)}
          value={date}
          onChange={(value) => setDate(value ? String(value).slice(0, 10) : null)}
          data-testid="pickup-date"
        />
      </SimpleGrid>
      <Radio.Group
        label={t('company')}
        value={companyId ? String(companyId) : ''}
        onChange={(value) => setCompanyId(Number(value))}
        mt="sm"
      >
        <Stack gap={4} mt={4}>
          {companies.map((company) => (
            <Radio
              key={company.id}
              value={String(company.id)}
              label={`${company.name} — ${formatMoney(company.price, locale)}${company.countFree > 0 ? ` (${t('freeFrom', { count: company.countFree })})` : ''}`}
              data-testid={`pickup-company-${company.id}`}
            />
          ))}
        </Stack>
      </Radio.Group>
      {companies.find((company) => company.id === companyId)?.commentAvailable && (
        <TextInput
          label={t('comment')}
          mt="xs"
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
        />
      )}
      <ApiError error={error} />
      <Button
        mt="sm"
        onClick={() => void book()}
        loading={busy}
        disabled={companyId === null || !date}
        data-testid="book-pickup"
      >
        {t('book')}
      </Button>
    </Card>
  );
}

const PICKUPS_PER_PAGE = 20;

/** A pickup's status in the page's language (the service names them in English: 1 New … 5 Error). */
const PICKUP_STATUS_KEYS = {
  1: 'pickupStatus1',
  2: 'pickupStatus2',
  3: 'pickupStatus3',
  4: 'pickupStatus4',
  5: 'pickupStatus5',
} as const;

function pickupStatusName(status: number, t: (key: (typeof PICKUP_STATUS_KEYS)[1 | 2 | 3 | 4 | 5]) => string): string {
  const key = PICKUP_STATUS_KEYS[status as keyof typeof PICKUP_STATUS_KEYS];
  return key ? t(key) : String(status);
}
export function PickupsPage() {
  const { t, locale } = useText();
  const [archive, setArchive] = useState<0 | 1>(0);
  const [page, setPage] = useState(1);
  const [pickups, setPickups] = useState<Pickup[] | null>(null);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(() => {
    setLoading(true);
    api
      .GET('/v2/pickups', { params: { query: { archive, page, perPage: PICKUPS_PER_PAGE } } })
      .then((result) => {
        try {
          setPickups(ok(result));
          setTotal(totalOf(result.response));
        } catch (caught) {
          setError(caught);
        }
      }, setError)
      .finally(() => setLoading(false));
  }, [archive, page]);
  useEffect(load, [load]);

  const cancel = async (id: number) => {
    setError(null);
    try {
      ok(await api.POST('/v2/pickups/cancel', { body: { id } }));
      load();
    } catch (caught) {
      setError(caught);
    }
  };

  const columns: Array<DataTableColumn<Pickup>> = [
    { key: 'id', header: t('id'), cell: (pickup) => pickup.number ?? pickup.id },
    {
      key: 'date',
      header: t('pickupDate'),
      cell: (pickup) =>
        `${formatDay(pickup.date, locale)} ${pickup.time.from ? `${pickup.time.from}–${pickup.time.to}` : ''}`,
    },
    { key: 'company', header: t('company'), cell: (pickup) => pickup.companyName },
    { key: 'warehouse', header: t('warehouse'), cell: (pickup) => pickup.warehouse.name },
    {
      key: 'status',
      header: t('status'),
      cell: (pickup) => (
        <>
          <Badge color={pickup.status === 5 ? 'red' : 'gray'}>{pickupStatusName(pickup.status, t)}</Badge>
          {pickup.error && (
            <Text size="xs" c="red">
              {pickup.error}
            </Text>
          )}
        </>
      ),
    },
    { key: 'orders', header: t('orders'), cell: (pickup) => pickup.countOrders },
    { key: 'price', header: t('price'), cell: (pickup) => formatMoney(pickup.price, locale) },
    {
      key: 'actions',
      header: '',
      cell: (pickup) => (
        <Group gap={4} wrap="nowrap">
          {pickup.file && (
            <Anchor href={fileHref(pickup.file)} target="_blank" size="sm">
              {t('handoverAct')}
            </Anchor>
          )}
          {archive === 0 && pickup.status <= 2 && (
            <Button size="compact-xs" variant="subtle" color="red" onClick={() => void cancel(pickup.id)}>
              {t('cancelPickup')}
            </Button>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{t('pickups')}</Title>
      <BookPickup booked={load} />
      <Group>
        <SegmentedControl
          value={String(archive)}
          onChange={(value) => {
            setArchive(value === '1' ? 1 : 0);
            setPage(1);
          }}
          data={[
            { value: '0', label: t('current') },
            { value: '1', label: t('archive') },
          ]}
        />
      </Group>
      <ApiError error={error} />
      <DataTable
        testId="pickups-table"
        ariaLabel={t('pickups')}
        columns={columns}
        rows={pickups}
        rowKey={(pickup) => pickup.id}
        rowProps={(pickup) => ({ 'data-pickup': String(pickup.id) })}
        loading={loading}
        labels={{ empty: t('noPickups'), total: (count) => `${t('total')}: ${count}` }}
        paging={{ page, perPage: PICKUPS_PER_PAGE, total, onPage: setPage }}
      />
    </Stack>
  );
}
