/**
 * Own delivery methods: the shop's own couriers, post or pickup points offered at checkout next
 * to the delivery companies. Each has where it goes (a radius around the sender's warehouse
 * and/or localities), price brackets by weight and order sum, a free-from sum, days, payment at
 * the door, and for the pickup-point kind its points.
 */
import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { formatMoney } from '../../format';
import { useText } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';

type Method = Schemas['DeliveryMethod'];
type PriceRule = Method['priceRules'][number];
interface PointDraft {
  id: number | null;
  name: string;
  address: string;
  latitude: number | '';
  longitude: number | '';
}

const numberOrNull = (value: string | number) => (value === '' ? null : Number(value));

function MethodForm({ method, done }: { method: Method | null; done(): void }) {
  const { t } = useText();
  const [name, setName] = useState(method?.name ?? '');
  const [type, setType] = useState<1 | 2 | 3>((method?.type as 1 | 2 | 3 | undefined) ?? 2);
  const [radiusKm, setRadiusKm] = useState<number | null>(method?.radiusKm ?? 30);
  const [rules, setRules] = useState<PriceRule[]>(
    method?.priceRules ?? [{ weightTo: null, orderSumFrom: null, price: 300 }],
  );
  const [freeFrom, setFreeFrom] = useState<number | null>(method?.freeFrom ?? null);
  const [days, setDays] = useState(method?.days ?? { min: 1, max: 2 });
  const [cash, setCash] = useState(method?.cashPaymentAvailable ?? false);
  const [card, setCard] = useState(method?.cardPaymentAvailable ?? false);
  const [points, setPoints] = useState<PointDraft[]>(
    (method?.points ?? []).map((point) => ({
      id: point.id,
      name: point.name,
      address: point.address,
      latitude: Number(point.latitude),
      longitude: Number(point.longitude),
    })),
  );
  const action = useAction();
  const setRule = (index: number, change: Partial<PriceRule>) =>
    setRules(rules.map((rule, at) => (at === index ? { ...rule, ...change } : rule)));
  const setPoint = (index: number, change: Partial<PointDraft>) =>
    setPoints(points.map((point, at) => (at === index ? { ...point, ...change } : point)));
  const save = async () => {
    const body = {
      name,
      type,
      localities: method?.localities ?? [],
      radiusKm,
      priceRules: rules,
      freeFrom,
      days,
      cashPaymentAvailable: cash,
      cardPaymentAvailable: card,
      // the points' other fields (schedule, description) are kept by id on the server
      points:
        type === 1
          ? points.map((point) => ({
              ...(point.id ? { id: point.id } : {}),
              name: point.name,
              address: point.address,
              latitude: Number(point.latitude),
              longitude: Number(point.longitude),
            }))
          : [],
    };
    const saved = await action.run(async () =>
      method
        ? ok(await api.PUT('/v2/delivery-methods/{id}', { params: { path: { id: method.id } }, body }))
        : ok(
            await api.POST('/v2/delivery-methods', {
              params: { header: { 'Idempotency-Key': idempotencyKey() } },
              body,
            }),
          ),
    );
    if (saved) done();
  };
  return (
    <Stack data-testid="method-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('titleName')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <Select
          label={t('deliveryKind')}
          value={String(type)}
          allowDeselect={false}
          onChange={(value) => setType(value === '1' ? 1 : value === '3' ? 3 : 2)}
          data={[
            { value: '1', label: t('type1') },
            { value: '2', label: t('type2') },
            { value: '3', label: t('type3') },
          ]}
        />
        <NumberInput
          label={t('radiusKm')}
          value={radiusKm ?? ''}
          min={0}
          onChange={(value) => setRadiusKm(numberOrNull(value))}
        />
        <NumberInput
          label={t('methodFreeFrom')}
          value={freeFrom ?? ''}
          min={0}
          onChange={(value) => setFreeFrom(numberOrNull(value))}
        />
        <NumberInput
          label={t('daysMin')}
          value={days.min}
          min={0}
          onChange={(value) => setDays({ ...days, min: Number(value) || 0 })}
        />
        <NumberInput
          label={t('daysMax')}
          value={days.max}
          min={0}
          onChange={(value) => setDays({ ...days, max: Number(value) || 0 })}
        />
      </SimpleGrid>
      <Group>
        <Checkbox label={t('cashAtDoor')} checked={cash} onChange={(event) => setCash(event.currentTarget.checked)} />
        <Checkbox label={t('cardAtDoor')} checked={card} onChange={(event) => setCard(event.currentTarget.checked)} />
      </Group>
      <Title order={4} size="h5">
        {t('priceBrackets')}
      </Title>
      {rules.map((rule, index) => (
        <SimpleGrid key={index} cols={{ base: 2, sm: 5 }} verticalSpacing="xs">
          <NumberInput
            label={`${t('weightTo')} ${index + 1}`}
            value={rule.weightTo ?? ''}
            min={0}
            onChange={(value) => setRule(index, { weightTo: numberOrNull(value) })}
          />
          <NumberInput
            label={`${t('orderSumFrom')} ${index + 1}`}
            value={rule.orderSumFrom ?? ''}
            min={0}
            onChange={(value) => setRule(index, { orderSumFrom: numberOrNull(value) })}
          />
          <NumberInput
            label={`${t('price')} ${index + 1}`}
            value={rule.price}
            min={0}
            onChange={(value) => setRule(index, { price: Number(value) || 0 })}
          />
          <Button
            variant="subtle"
            color="red"
            style={{ alignSelf: 'end' }}
            disabled={rules.length === 1}
            onClick={() => setRules(rules.filter((_, at) => at !== index))}
          >
            {t('remove')}
          </Button>
        </SimpleGrid>
      ))}
      <Group>
        <Button
          variant="default"
          onClick={() => setRules([...rules, { weightTo: null, orderSumFrom: null, price: 0 }])}
        >
          {t('addBracket')}
        </Button>
      </Group>
      {type === 1 && (
        <>
          <Title order={4} size="h5">
            {t('ownPoints')}
          </Title>
          {points.map((point, index) => (
            <SimpleGrid key={index} cols={{ base: 2, sm: 5 }} verticalSpacing="xs">
              <TextInput
                label={`${t('name')} ${index + 1}`}
                value={point.name}
                onChange={(event) => setPoint(index, { name: event.currentTarget.value })}
              />
              <TextInput
                label={`${t('address')} ${index + 1}`}
                value={point.address}
                onChange={(event) => setPoint(index, { address: event.currentTarget.value })}
              />
              <NumberInput
                label={`${t('latitude')} ${index + 1}`}
                value={point.latitude}
                decimalScale={6}
                onChange={(value) => setPoint(index, { latitude: value === '' ? '' : Number(value) })}
              />
              <NumberInput
                label={`${t('longitude')} ${index + 1}`}
                value={point.longitude}
                decimalScale={6}
                onChange={(value) => setPoint(index, { longitude: value === '' ? '' : Number(value) })}
              />
              <Button
                variant="subtle"
                color="red"
                style={{ alignSelf: 'end' }}
                onClick={() => setPoints(points.filter((_, at) => at !== index))}
              >
                {t('remove')}
              </Button>
            </SimpleGrid>
          ))}
          <Group>
            <Button
              variant="default"
              onClick={() => setPoints([...points, { id: null, name: '', address: '', latitude: '', longitude: '' }])}
            >
              {t('addPoint')}
            </Button>
          </Group>
        </>
      )}
      <ApiError error={action.error} />
      <Group>
        <Button onClick={() => void save()} data-testid="save-method">
          {t('saveSettings')}
        </Button>
      </Group>
    </Stack>
  );
}

export function DeliveryMethodsPage() {
  const { t, locale } = useText();
  const methods = useList(() => api.GET('/v2/delivery-methods'), 'delivery-methods');
  const [editing, setEditing] = useState<Method | 'new' | null>(null);
  const action = useAction();
  const remove = async (id: string) => {
    if (await action.run(async () => ok(await api.DELETE('/v2/delivery-methods/{id}', { params: { path: { id } } }))))
      methods.reload();
  };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('deliveryMethods')}</Title>
        <Button onClick={() => setEditing('new')} data-testid="new-method">
          {t('create')}
        </Button>
      </Group>
      <ApiError error={methods.error ?? action.error} />
      <Card withBorder p={0}>
        <DataTable
          rows={methods.data}
          rowKey={(method) => method.id}
          labels={{ empty: t('nothingYet') }}
          columns={[
            {
              key: 'name',
              header: t('name'),
              cell: (method) => (
                <Button
                  variant="subtle"
                  size="compact-sm"
                  onClick={() => setEditing(method)}
                  data-testid={`method-${method.name}`}
                >
                  {method.name}
                </Button>
              ),
            },
            { key: 'type', header: t('deliveryKind'), cell: (method) => t(`type${method.type as 1 | 2 | 3}`) },
            {
              key: 'price',
              header: t('price'),
              cell: (method) => method.priceRules.map((rule) => formatMoney(rule.price, locale)).join(' / '),
            },
            { key: 'days', header: t('days'), cell: (method) => `${method.days.min}–${method.days.max}` },
            {
              key: 'remove',
              header: '',
              cell: (method) => (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`${t('delete')} ${method.name}`}
                  onClick={() => void remove(method.id)}
                >
                  ×
                </ActionIcon>
              ),
            },
          ]}
        />
      </Card>
      <Modal
        closeButtonProps={{ 'aria-label': t('closeDialog') }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="xl"
        title={editing === 'new' ? t('newMethod') : editing ? editing.name : t('edit')}
      >
        {editing !== null && (
          <MethodForm
            method={editing === 'new' ? null : editing}
            done={() => {
              setEditing(null);
              methods.reload();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
