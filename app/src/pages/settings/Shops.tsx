/**
 * Settings of the shops: create and edit a shop (its fields and who is notified of what),
 * each shop's API key shown once when re-issued (the old one stops at
 * once), and the checkout widget's settings (price rules, free delivery, rounding) with a live
 * preview of the prices a buyer would see under them (POST /v2/calculator with the shop's
 * widget settings applied, from the shop's warehouse to Санкт-Петербург).
 */
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatMoney } from '../../format';
import { useText } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';

type Settings = Schemas['WidgetSettings'];
type Rule = NonNullable<Settings['priceRules']>[number];
const TYPES = ['1', '2', '3'] as const;
type Shop = Schemas['Shop'];
type Notifications = Shop['notifications'];
type EventName = Exclude<keyof Notifications['events'], 'productEndsInFulfilment'>;
const EVENTS: EventName[] = [
  'newOrder',
  'newProblemOrder',
  'ordersExpirationInPickupPoint',
  'ordersSentForReturn',
  'fulfillmentReceivedReturns',
  'orderProductsNotAvailableInFulfilment',
  'deliveryAcceptedForFulfillment',
];
const FLAGS = [
  'emailNotifications',
  'carrierACalling',
  'cmsProductsAutocomplete',
  'sendQuantityToCMS',
  'disableQuantityControlInCheckout',
] as const;
const PLATFORMS = ['api', 'checkout', 'woocommerce', 'bitrix', 'insales', 'tilda', 'shopify', 'opencart', 'other'];

const NO_NOTIFICATIONS: Notifications = {
  events: {
    ordersExpirationInPickupPoint: false,
    ordersSentForReturn: false,
    newOrder: false,
    newProblemOrder: false,
    fulfillmentReceivedReturns: false,
    productEndsInFulfilment: { enabled: false, border: null },
    orderProductsNotAvailableInFulfilment: false,
    deliveryAcceptedForFulfillment: false,
  },
  currentAccount: { enabled: false },
  employees: { enabled: false, ids: [] },
};

/** A shop's fields and its notifications: who (the account's address, employees) hears of which events. */
function ShopForm({ shop, done }: { shop: Shop | null; done(): void }) {
  const { t } = useText();
  const warehouses = useList(
    () => api.GET('/v2/warehouses', { params: { query: { perPage: 100 } } }),
    'shop-warehouses',
  );
  const employees = useList(() => api.GET('/v2/employees'), 'shop-employees');
  const [name, setName] = useState(shop?.name ?? '');
  const [brand, setBrand] = useState(shop?.brand ?? '');
  const [platform, setPlatform] = useState<string | null>(shop?.platform ?? 'api');
  const [warehouseId, setWarehouseId] = useState<string | null>(shop ? String(shop.warehouse.id) : null);
  const [flags, setFlags] = useState<Record<(typeof FLAGS)[number], boolean>>(
    () =>
      Object.fromEntries(FLAGS.map((flag) => [flag, shop?.[flag] ?? false])) as Record<(typeof FLAGS)[number], boolean>,
  );
  const [notifications, setNotifications] = useState<Notifications>(shop?.notifications ?? NO_NOTIFICATIONS);
  const action = useAction();
  const events = notifications.events;
  const setEvents = (change: Partial<Notifications['events']>) =>
    setNotifications({ ...notifications, events: { ...events, ...change } });
  const save = async () => {
    const body = {
      name,
      brand,
      platform,
      ...flags,
      warehouse: Number(warehouseId),
      notifications,
    };
    const saved = await action.run(async () =>
      shop
        ? ok(await api.PUT('/v2/shops/{id}', { params: { path: { id: shop.id } }, body }))
        : ok(await api.POST('/v2/shops', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body })),
    );
    if (saved) done();
  };
  return (
    <Stack data-testid="shop-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('titleName')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <TextInput label={t('brand')} value={brand} onChange={(event) => setBrand(event.currentTarget.value)} />
        <Select label={t('platform')} value={platform} onChange={setPlatform} data={PLATFORMS} searchable />
        <Select
          label={t('senderWarehouse')}
          value={warehouseId}
          onChange={setWarehouseId}
          data={(warehouses.data ?? []).map((warehouse) => ({ value: String(warehouse.id), label: warehouse.name }))}
          data-testid="shop-warehouse"
        />
      </SimpleGrid>
      {FLAGS.map((flag) => (
        <Checkbox
          key={flag}
          label={t(flag)}
          checked={flags[flag]}
          onChange={(event) => setFlags({ ...flags, [flag]: event.currentTarget.checked })}
        />
      ))}
      <Title order={4} size="h5">
        {t('whoIsNotified')}
      </Title>
      <Checkbox
        label={t('notifyAccount')}
        checked={notifications.currentAccount.enabled}
        onChange={(event) =>
          setNotifications({ ...notifications, currentAccount: { enabled: event.currentTarget.checked } })
        }
      />
      <Checkbox
        label={t('notifyEmployees')}
        checked={notifications.employees.enabled}
        onChange={(event) =>
          setNotifications({
            ...notifications,
            employees: { ...notifications.employees, enabled: event.currentTarget.checked },
          })
        }
      />
      {notifications.employees.enabled && (
        <MultiSelect
          label={`${t('notifiedEmployees')} (${t('notifiedEmployeesHint')})`}
          value={(notifications.employees.ids ?? []).map(String)}
          onChange={(ids) => setNotifications({ ...notifications, employees: { enabled: true, ids: ids.map(Number) } })}
          data={(employees.data ?? []).map((employee) => ({
            value: String(employee.id),
            label: `${employee.name ?? ''} ${employee.email}`.trim(),
          }))}
        />
      )}
      <Title order={4} size="h5">
        {t('ofWhat')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {EVENTS.map((event) => (
          <Checkbox
            key={event}
            label={t(`event_${event}`)}
            checked={events[event]}
            onChange={(change) => setEvents({ [event]: change.currentTarget.checked })}
            data-testid={`event-${event}`}
          />
        ))}
      </SimpleGrid>
      <Group align="end">
        <Checkbox
          label={t('event_productEndsInFulfilment')}
          checked={events.productEndsInFulfilment.enabled}
          onChange={(change) =>
            setEvents({
              productEndsInFulfilment: { ...events.productEndsInFulfilment, enabled: change.currentTarget.checked },
            })
          }
        />
        <NumberInput
          label={t('lowStockBorder')}
          value={events.productEndsInFulfilment.border ?? ''}
          min={0}
          w={160}
          onChange={(value) =>
            setEvents({
              productEndsInFulfilment: {
                ...events.productEndsInFulfilment,
                border: value === '' ? null : Number(value),
              },
            })
          }
        />
      </Group>
      <ApiError error={action.error} />
      <Group>
        <Button onClick={() => void save()} data-testid="save-shop">
          {t('saveSettings')}
        </Button>
      </Group>
    </Stack>
  );
}

function ApiKey({ shopId }: { shopId: number }) {
  const { t } = useText();
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reissue = async () => {
    setError(null);
    try {
      setKey(ok(await api.POST('/v2/shops/{id}/api-key', { params: { path: { id: shopId } } })).apiKey);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="default" size="xs" onClick={() => void reissue()} data-testid="reissue-key">
          {t('reissueKey')}
        </Button>
      </Group>
      {key && (
        <Alert color="indigo" title={t('keyShownOnce')} data-testid="new-key">
          <Code>{key}</Code>
        </Alert>
      )}
      <ApiError error={error} />
    </Stack>
  );
}

/** The cheapest price of each delivery type under the shop's widget settings. */
function PricePreview({ shopId, generation }: { shopId: number; generation: number }) {
  const { t, locale } = useText();
  const [prices, setPrices] = useState<Partial<Record<(typeof TYPES)[number], number>>>({});
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    api
      .POST('/v2/calculator', {
        params: { header: { 'Shop-Id': shopId } },
        body: {
          reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
          products: [
            {
              count: 1,
              priceDeclared: 1000,
              priceCod: 0,
              weight: 1,
              dimensions: { width: 20, height: 10, length: 30 },
            },
          ],
          priceDeclared: 1000,
          applyWidgetSettings: true,
        },
      })
      .then(
        (result) => {
          if (!live) return;
          try {
            const quotes = ok(result);
            const cheapest = Object.fromEntries(
              TYPES.map((type) => {
                // a pickup point company's prices may be per point: only quotes with a price count
                const priced = (quotes[type] ?? [])
                  .map((quote) => Number(quote.totalPrice ?? quote.priceDelivery))
                  .filter(Number.isFinite);
                return [type, Math.min(...priced)];
              }).filter(([, price]) => Number.isFinite(price)),
            );
            setPrices(cheapest);
            setError(null);
          } catch (caught) {
            setError(caught);
          }
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [shopId, generation]);
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('preview')}
      </Title>
      <Text size="sm" mb="xs">
        {t('previewCart')}
      </Text>
      <ApiError error={error} />
      <SimpleGrid cols={3}>
        {TYPES.map((type) => (
          <Stack key={type} gap={0}>
            <Text size="sm">{t(`type${type}`)}</Text>
            <Text fw={700} data-testid={`preview-price-${type}`}>
              {prices[type] === undefined ? '—' : formatMoney(prices[type], locale)}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Card>
  );
}

function WidgetSettingsCard({ shopId }: { shopId: number }) {
  const { t } = useText();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    api.GET('/v2/shops/{id}/widget-settings', { params: { path: { id: shopId } } }).then(
      (result) => {
        try {
          setSettings(ok(result));
        } catch (caught) {
          setError(caught);
        }
      },
      () => undefined,
    );
  }, [shopId]);
  const rules = settings?.priceRules ?? [];
  const setRule = (index: number, rule: Partial<Rule>) =>
    settings &&
    setSettings({ ...settings, priceRules: rules.map((other, at) => (at === index ? { ...other, ...rule } : other)) });
  const save = async () => {
    if (!settings) return;
    setError(null);
    try {
      ok(await api.PUT('/v2/shops/{id}/widget-settings', { params: { path: { id: shopId } }, body: settings }));
      setGeneration((value) => value + 1);
    } catch (caught) {
      setError(caught);
    }
  };
  if (!settings) return <ApiError error={error} />;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('priceRules')}
        </Title>
        {rules.map((rule, index) => (
          <Group key={index} grow align="end" mb="xs">
            <Select
              label={`${t('ruleKind')} ${index + 1}`}
              value={rule.kind}
              onChange={(value) => setRule(index, { kind: (value as Rule['kind']) ?? 'markup' })}
              data={[
                { value: 'markup', label: t('markup') },
                { value: 'discount', label: t('discount') },
                { value: 'fixed', label: t('fixedPrice') },
              ]}
            />
            <NumberInput
              label={`${t('percent')} ${index + 1}`}
              value={rule.percent ?? ''}
              min={0}
              onChange={(value) => setRule(index, { percent: value === '' ? null : Number(value) })}
            />
            <NumberInput
              label={`${t('amount')} ${index + 1}`}
              value={rule.amount ?? ''}
              min={0}
              onChange={(value) => setRule(index, { amount: value === '' ? null : Number(value) })}
              data-testid={`rule-amount-${index}`}
            />
            <Button
              variant="subtle"
              color="red"
              onClick={() => setSettings({ ...settings, priceRules: rules.filter((_, at) => at !== index) })}
            >
              {t('remove')}
            </Button>
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            onClick={() =>
              setSettings({
                ...settings,
                priceRules: [...rules, { kind: 'markup', percent: null, amount: null, type: null, companyId: null }],
              })
            }
            data-testid="add-rule"
          >
            {t('addRule')}
          </Button>
        </Group>
        <NumberInput
          mt="sm"
          label={t('freeDeliveryFrom')}
          value={settings.freeDeliveryFrom ?? ''}
          min={0}
          onChange={(value) => setSettings({ ...settings, freeDeliveryFrom: value === '' ? null : Number(value) })}
        />
        <Group mt="sm">
          <Button onClick={() => void save()} data-testid="save-widget-settings">
            {t('applyChanges')}
          </Button>
        </Group>
        <ApiError error={error} />
      </Card>
      <PricePreview shopId={shopId} generation={generation} />
    </SimpleGrid>
  );
}

export function ShopsSettingsPage() {
  const { t } = useText();
  const shopsList = useList(() => api.GET('/v2/shops', { params: { query: { perPage: 1000 } } }), 'settings-shops');
  const [shopId, setShopId] = useState<string | null>(null);
  const [editing, setEditing] = useState<Shop | 'new' | null>(null);
  const shops = shopsList.data ?? [];
  const chosen = shopId ?? (shops[0] ? String(shops[0].id) : null);
  const chosenShop = shops.find((shop) => String(shop.id) === chosen) ?? null;
  return (
    <Stack>
      <Title order={2}>{t('shopSettings')}</Title>
      <ApiError error={shopsList.error} />
      <Group align="end">
        <Select
          label={t('shop')}
          value={chosen}
          onChange={setShopId}
          data={shops.map((shop) => ({ value: String(shop.id), label: shop.name }))}
          w={320}
          data-testid="settings-shop"
        />
        {chosenShop && (
          <Button variant="default" onClick={() => setEditing(chosenShop)} data-testid="edit-shop">
            {t('edit')}
          </Button>
        )}
        <Button onClick={() => setEditing('new')} data-testid="new-shop">
          {t('newShop')}
        </Button>
      </Group>
      <Modal
        closeButtonProps={{ 'aria-label': t('closeDialog') }}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="xl"
        title={editing === 'new' ? t('newShop') : editing ? editing.name : t('edit')}
      >
        {editing !== null && (
          <ShopForm
            shop={editing === 'new' ? null : editing}
            done={() => {
              setEditing(null);
              shopsList.reload();
            }}
          />
        )}
      </Modal>
      {chosen && (
        <Stack key={chosen}>
          <Table>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th>API</Table.Th>
                <Table.Td>
                  <ApiKey shopId={Number(chosen)} />
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <WidgetSettingsCard shopId={Number(chosen)} />
        </Stack>
      )}
    </Stack>
  );
}
