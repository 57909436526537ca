/**
 * Settings of the shops: create and edit a shop (its fields and who is notified of what),
 * each shop's API key shown once when re-issued (the old one stops at once), and the checkout
 * widget's settings with their price preview (WidgetSettings.tsx), and links to its shipping rules
 * (ShippingRules.tsx) and its buyers' messages (BuyerMessages.tsx).
 */
import {
  Alert,
  Button,
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
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useText } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { WidgetSettingsCard } from './WidgetSettings';

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
        {chosenShop && (
          <Button
            variant="default"
            component={Link}
            to={`/settings/shipping-rules?shop=${chosenShop.id}`}
            data-testid="shop-shipping-rules"
          >
            {t('shippingRules')}
          </Button>
        )}
        {chosenShop && (
          <Button
            variant="default"
            component={Link}
            to={`/settings/buyer-messages?shop=${chosenShop.id}`}
            data-testid="shop-buyer-messages"
          >
            {t('buyerMessages')}
          </Button>
        )}
        {chosenShop && (
          <Button
            variant="default"
            component={Link}
            to={`/settings/return-settings?shop=${chosenShop.id}`}
            data-testid="shop-return-settings"
          >
            {t('rtSettings')}
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
