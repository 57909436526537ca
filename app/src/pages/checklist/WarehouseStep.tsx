/**
 * The checklist's warehouse: its address (the city is AddressField; the street and house are
 * suggested from the address register, pages/addresses/StreetAndHouse), contact, working hours per day and how parcels leave it (the
 * warehouse's pickup type: to a company's drop-off point, or collected). Checked here before it
 * is sent; the API's own refusals show under the form with their fields.
 */
import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok } from '../../api';
import { AddressField } from '../../components/AddressField';
import { StreetAndHouse } from '../addresses/StreetAndHouse';
import { ApiError } from '../../components/ApiError';
import { scheduleOf, WeekHoursFields, WORKWEEK_HOURS } from '../../components/WeekHoursFields';
import { useAction } from '../../hooks/use-action';
import { type TextKey, useText } from '../../i18n';

const HOURS = /^\s*([01]?\d|2[0-3]):[0-5]\d\s*-\s*(([01]?\d|2[0-3]):[0-5]\d|24:00)\s*$/;
const PHONE = /^\+?\d[\d\s()-]{9,}$/;

export interface WarehouseDraft {
  name: string;
  city: string;
  street: string;
  house: string;
  contactName: string;
  phone: string;
  hours: string[];
  pickupType: '1' | '3' | '4';
}

export const EMPTY_WAREHOUSE: WarehouseDraft = {
  name: '',
  city: '',
  street: '',
  house: '',
  contactName: '',
  phone: '',
  hours: WORKWEEK_HOURS,
  pickupType: '1',
};

/** The form's own checks: field → the key of its message. */
export function warehouseProblems(draft: WarehouseDraft): Partial<Record<keyof WarehouseDraft | 'hours', TextKey>> {
  const problems: Partial<Record<keyof WarehouseDraft | 'hours', TextKey>> = {};
  for (const field of ['name', 'city', 'street', 'contactName'] as const)
    if (!draft[field].trim()) problems[field] = 'clRequired';
  if (!PHONE.test(draft.phone.trim())) problems.phone = 'clPhoneFormat';
  if (draft.hours.some((hours) => hours.trim() !== '' && !HOURS.test(hours))) problems.hours = 'clHoursFormat';
  else if (draft.hours.every((hours) => hours.trim() === '')) problems.hours = 'clNoWorkingDay';
  return problems;
}

export function WarehouseStep({ done }: { done(): void }) {
  const { t } = useText();
  const [draft, setDraft] = useState<WarehouseDraft>(EMPTY_WAREHOUSE);
  const [tried, setTried] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const action = useAction();
  const problems = tried ? warehouseProblems(draft) : {};
  const set = (change: Partial<WarehouseDraft>) => setDraft({ ...draft, ...change });
  const message = (field: keyof typeof problems) => (problems[field] ? t(problems[field] as TextKey) : null);
  const save = async () => {
    setTried(true);
    if (Object.keys(warehouseProblems(draft)).length > 0) return;
    const body = {
      name: draft.name.trim(),
      type: 1 as const,
      pickupType: Number(draft.pickupType) as 1 | 3 | 4,
      address: {
        street: draft.street.trim(),
        house: draft.house.trim() || null,
        city: { countryCode: 'RU', name: draft.city.trim() },
      },
      contact: { name: draft.contactName.trim(), phone: draft.phone.trim() },
      schedule: scheduleOf(draft.hours),
    };
    const made = await action.run(async () =>
      ok(await api.POST('/v2/warehouses', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body })),
    );
    if (made) {
      setSaved(body.name);
      done();
    }
  };
  return (
    <Stack data-testid="checklist-warehouse-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('titleName')}
          required
          value={draft.name}
          error={message('name')}
          onChange={(event) => set({ name: event.currentTarget.value })}
        />
        <AddressField
          label={t('clCity')}
          required
          value={draft.city}
          error={message('city')}
          onChange={(city) => set({ city })}
        />
        <StreetAndHouse
          city={draft.city.trim() ? { name: draft.city.trim() } : null}
          value={{ street: draft.street, house: draft.house, fiasId: null }}
          onChange={({ street, house }) => set({ street, house })}
          errors={{ street: message('street') ?? undefined }}
          streetRequired
          testIdPrefix="checklist-warehouse"
        />
        <TextInput
          label={t('clContactName')}
          required
          value={draft.contactName}
          error={message('contactName')}
          onChange={(event) => set({ contactName: event.currentTarget.value })}
        />
        <TextInput
          label={t('clPhone')}
          required
          type="tel"
          value={draft.phone}
          error={message('phone')}
          onChange={(event) => set({ phone: event.currentTarget.value })}
        />
      </SimpleGrid>
      <WeekHoursFields
        hours={draft.hours}
        onChange={(hours) => set({ hours })}
        cols={{ base: 2, sm: 4, lg: 7 }}
        error={problems.hours && t(problems.hours)}
      />
      <Select
        label={t('clHowParcelsLeave')}
        value={draft.pickupType}
        allowDeselect={false}
        onChange={(value) => set({ pickupType: (value ?? '1') as WarehouseDraft['pickupType'] })}
        data={[
          { value: '1', label: t('clPickupType1') },
          { value: '4', label: t('clPickupType4') },
          { value: '3', label: t('clPickupType3') },
        ]}
        data-testid="checklist-pickup-type"
      />
      <ApiError error={action.error} />
      <Group>
        <Button onClick={() => void save()} data-testid="checklist-save-warehouse">
          {t('clCreateWarehouse')}
        </Button>
        {saved && <Text size="sm">{t('clWarehouseSaved', { name: saved })}</Text>}
      </Group>
    </Stack>
  );
}
