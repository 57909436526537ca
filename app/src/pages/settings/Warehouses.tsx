/**
 * Warehouses: the account's sender warehouses with their working hours (Monday to Sunday, a
 * day off left empty), holidays and, for a fulfilment-type warehouse, the service's fulfilment
 * warehouse its goods are kept at. A new warehouse is created with the same form.
 */
import { Button, Card, Group, Modal, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { scheduleOf, WeekHoursFields, WORKWEEK_HOURS } from '../../components/WeekHoursFields';
import { useText } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { useFulfilmentWarehouses } from '../../hooks/use-fulfilment-warehouses';
import { StreetAndHouse } from '../addresses/StreetAndHouse';
import { useList } from '../../hooks/use-list';

type Warehouse = Schemas['Warehouse'];

interface Draft {
  name: string;
  type: 1 | 2;
  street: string;
  house: string;
  city: string;
  contactName: string;
  phone: string;
  /** "09:00-18:00" per day, '' for a day off. */
  hours: string[];
  holidays: string[];
  fulfilmentWarehouseId: number | null;
}

const hoursOf = (day: Warehouse['schedule'][number]): string =>
  day && typeof day === 'object' ? `${day.from}-${day.to}` : typeof day === 'string' ? day : '';

function draftOf(warehouse: Warehouse | null): Draft {
  return {
    name: warehouse?.name ?? '',
    type: warehouse?.type === 2 ? 2 : 1,
    street: warehouse?.address.street ?? '',
    house: warehouse?.address.house ?? '',
    city: warehouse?.address.city.name ?? 'Москва',
    contactName: warehouse?.contact.name ?? '',
    phone: warehouse?.contact.phone ?? '',
    hours: warehouse ? warehouse.schedule.map(hoursOf) : WORKWEEK_HOURS,
    holidays: warehouse?.holidays ?? [],
    fulfilmentWarehouseId: warehouse?.fulfilmentWarehouseId ?? null,
  };
}

/** The request body: the warehouse as read with the form's fields over it (fields the form has no place for are kept). */
function bodyOf(draft: Draft, warehouse: Warehouse | null) {
  return {
    ...(warehouse
      ? {
          pickupType: warehouse.pickupType,
          senderOtherEntity: warehouse.senderOtherEntity,
          fulfilmentAutoReserve: warehouse.fulfilmentAutoReserve,
          markCompletedOrders: warehouse.markCompletedOrders,
        }
      : {}),
    name: draft.name,
    type: draft.type,
    address: {
      ...(warehouse?.address ?? {}),
      street: draft.street,
      house: draft.house || null,
      city:
        warehouse && warehouse.address.city.name === draft.city
          ? warehouse.address.city
          : { countryCode: 'RU', name: draft.city },
    },
    contact: { ...(warehouse?.contact ?? {}), name: draft.contactName, phone: draft.phone },
    schedule: scheduleOf(draft.hours),
    holidays: draft.holidays,
    fulfilmentWarehouseId: draft.type === 2 ? draft.fulfilmentWarehouseId : null,
  };
}

function WarehouseForm({ warehouse, done }: { warehouse: Warehouse | null; done(): void }) {
  const { t } = useText();
  const fulfilment = useFulfilmentWarehouses();
  const [draft, setDraft] = useState<Draft>(() => draftOf(warehouse));
  const action = useAction();
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const save = async () => {
    const body = bodyOf(draft, warehouse) as Schemas['Warehouse'] & { id?: never };
    const saved = await action.run(async () =>
      warehouse
        ? ok(await api.PUT('/v2/warehouses/{id}', { params: { path: { id: warehouse.id } }, body }))
        : ok(await api.POST('/v2/warehouses', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body })),
    );
    if (saved) done();
  };
  return (
    <Stack data-testid="warehouse-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('titleName')}
          value={draft.name}
          onChange={(event) => set({ name: event.currentTarget.value })}
        />
        <Select
          label={t('warehouseType')}
          value={String(draft.type)}
          disabled={warehouse?.type === 2}
          allowDeselect={false}
          onChange={(value) => set({ type: value === '2' ? 2 : 1 })}
          data={[
            { value: '1', label: t('ownWarehouse') },
            { value: '2', label: t('fulfilmentWarehouse') },
          ]}
        />
        {draft.type === 2 && (
          <Select
            label={t('fulfilmentWarehouse')}
            value={draft.fulfilmentWarehouseId === null ? null : String(draft.fulfilmentWarehouseId)}
            onChange={(value) => set({ fulfilmentWarehouseId: value ? Number(value) : null })}
            data={fulfilment.map((one) => ({ value: String(one.id), label: one.name }))}
            data-testid="fulfilment-warehouse"
          />
        )}
        <TextInput
          label={t('city')}
          value={draft.city}
          onChange={(event) => set({ city: event.currentTarget.value })}
        />
        <StreetAndHouse
          city={draft.city.trim() ? { name: draft.city.trim() } : null}
          value={{ street: draft.street, house: draft.house, fiasId: null }}
          onChange={({ street, house }) => set({ street, house })}
          testIdPrefix="warehouse"
        />
        <TextInput
          label={t('contactName')}
          value={draft.contactName}
          onChange={(event) => set({ contactName: event.currentTarget.value })}
        />
        <TextInput
          label={t('phone')}
          value={draft.phone}
          onChange={(event) => set({ phone: event.currentTarget.value })}
        />
      </SimpleGrid>
      <WeekHoursFields
        hours={draft.hours}
        onChange={(hours) => set({ hours })}
        cols={{ base: 2, sm: 4, md: 7 }}
        hint={t('scheduleHint')}
      />
      <DatePickerInput
        type="multiple"
        label={t('holidays')}
        value={draft.holidays}
        onChange={(days) => set({ holidays: days.map(String).sort() })}
        data-testid="holidays"
      />
      <ApiError error={action.error} />
      <Group>
        <Button onClick={() => void save()} data-testid="save-warehouse">
          {t('saveSettings')}
        </Button>
      </Group>
    </Stack>
  );
}

export function WarehousesPage() {
  const { t } = useText();
  const warehouses = useList(() => api.GET('/v2/warehouses', { params: { query: { perPage: 100 } } }), 'warehouses');
  const [editing, setEditing] = useState<Warehouse | 'new' | null>(null);
  const close = () => setEditing(null);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('warehouses')}</Title>
        <Button onClick={() => setEditing('new')} data-testid="new-warehouse">
          {t('create')}
        </Button>
      </Group>
      <ApiError error={warehouses.error} />
      <Card withBorder p={0}>
        <DataTable
          rows={warehouses.data}
          rowKey={(warehouse) => warehouse.id}
          labels={{ empty: t('nothingYet') }}
          columns={[
            { key: 'id', header: '#', cell: (warehouse) => warehouse.id },
            {
              key: 'name',
              header: t('name'),
              cell: (warehouse) => (
                <Button
                  variant="subtle"
                  size="compact-sm"
                  onClick={() => setEditing(warehouse)}
                  data-testid={`warehouse-${warehouse.name}`}
                >
                  {warehouse.name}
                </Button>
              ),
            },
            {
              key: 'type',
              header: t('warehouseType'),
              cell: (warehouse) => (warehouse.type === 2 ? t('fulfilmentWarehouse') : t('ownWarehouse')),
            },
            {
              key: 'schedule',
              header: t('schedule'),
              cell: (warehouse) => warehouse.schedule.map((day) => hoursOf(day) || '—').join(' · '),
            },
            {
              key: 'holidays',
              header: t('holidays'),
              cell: (warehouse) => (warehouse.holidays ?? []).join(', ') || '—',
            },
          ]}
        />
      </Card>
      <Modal
        closeButtonProps={{ 'aria-label': t('closeDialog') }}
        opened={editing !== null}
        onClose={close}
        size="xl"
        title={editing === 'new' ? t('newWarehouse') : editing ? editing.name : t('edit')}
      >
        {editing !== null && (
          <WarehouseForm
            warehouse={editing === 'new' ? null : editing}
            done={() => {
              close();
              warehouses.reload();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
