/**
 * Marketplaces: connect Ozon, Wildberries, Yandex Market or the sandbox with their parameters
 * (shown masked after saving), the shipment schemes in use (FBS, FBO, DBS: those the marketplace
 * offers), disconnect; the marketplace orders with the contract's lists and filters and their
 * bundles; the goods of those orders not matched to the catalogue yet, each matched to a product
 * by adding the marketplace's identifiers to the product's bindings.
 */
import {
  Autocomplete,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { formatInstant, formatMoney } from '../../format';
import { useText, type TextKey } from '../../i18n';
import { ConnectCard } from '../../components/ConnectCard';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { useSignedIn } from '../../session';
import { unmatchedGoods, type UnmatchedGood } from './unmatched';

type Marketplace = Schemas['Marketplace'];
type MarketplaceOrder = Schemas['MarketplaceOrder'];
const SCHEMES = [
  { flag: 'fbsEnabled', offered: 'fbs', label: 'FBS' },
  { flag: 'fboEnabled', offered: 'fbo', label: 'FBO' },
  { flag: 'dbsEnabled', offered: 'dbs', label: 'DBS' },
] as const;
const LIST_NAMES: TextKey[] = [
  'mpListAll',
  'mpListNew',
  'mpListAccepted',
  'mpListShipped',
  'mpListDelivered',
  'mpListCanceled',
];
const PER_PAGE = 50;
/** How many of the latest orders the not-matched list reads (see the decisions: no server filter for it). */
const UNMATCHED_WINDOW = 1000;

/** Which shipment schemes are used with a connected marketplace: only those it offers can be ticked. */
function SchemeSettings({ marketplace, changed }: { marketplace: Marketplace; changed(): void }) {
  const { t } = useText();
  const [flags, setFlags] = useState({
    fbsEnabled: marketplace.settings?.fbsEnabled ?? false,
    fboEnabled: marketplace.settings?.fboEnabled ?? false,
    dbsEnabled: marketplace.settings?.dbsEnabled ?? false,
  });
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const save = async () => {
    setSaved(false);
    if (
      await action.run(async () =>
        ok(await api.POST('/v2/marketplaces/settings/{id}', { params: { path: { id: marketplace.id } }, body: flags })),
      )
    ) {
      setSaved(true);
      changed();
    }
  };
  return (
    <Stack gap="xs" data-testid={`schemes-${marketplace.id}`}>
      <Text size="sm" fw={700}>
        {t('shipmentSchemes')}
      </Text>
      <Group>
        {SCHEMES.map((scheme) => (
          <Checkbox
            key={scheme.flag}
            label={scheme.label}
            disabled={!marketplace[scheme.offered]}
            checked={flags[scheme.flag]}
            onChange={(event) => setFlags({ ...flags, [scheme.flag]: event.currentTarget.checked })}
          />
        ))}
      </Group>
      <Group>
        <Button size="xs" variant="default" onClick={() => void save()} data-testid={`save-schemes-${marketplace.id}`}>
          {t('saveSettings')}
        </Button>
        {saved && <Badge color="teal.9">{t('savedMark')}</Badge>}
      </Group>
      <ApiError error={action.error} />
    </Stack>
  );
}

function OrdersTable({
  rows,
  total,
  page,
  setPage,
  openBundle,
}: {
  rows: MarketplaceOrder[] | null;
  total: number;
  page?: number;
  setPage?(page: number): void;
  openBundle?(id: string): void;
}) {
  const { t, locale } = useText();
  const session = useSignedIn();
  return (
    <DataTable
      rows={rows}
      rowKey={(order) => order.id}
      labels={{ empty: t('nothingYet') }}
      paging={page && setPage ? { page, perPage: PER_PAGE, total, onPage: setPage } : undefined}
      columns={[
        { key: 'id', header: '#', cell: (order) => order.id },
        { key: 'marketplace', header: t('marketplaces'), cell: (order) => order.marketplace?.name ?? '—' },
        { key: 'number', header: t('order'), cell: (order) => order.marketplaceOrderNumber ?? '—' },
        {
          key: 'date',
          header: t('date'),
          cell: (order) => formatInstant(order.marketplaceCreationDate, locale, session.timeZone),
        },
        {
          key: 'scheme',
          header: t('shipmentScheme'),
          cell: (order) => (order.shippingMode ? (SCHEMES[order.shippingMode - 1]?.label ?? order.shippingMode) : '—'),
        },
        {
          key: 'status',
          header: t('status'),
          cell: (order) => (
            <Group gap={4}>
              {order.statusHistory[0]?.name ?? '—'}
              {order.marketplaceAcceptExpired && <Badge color="red.9">{t('acceptOverdue')}</Badge>}
              {order.errors && <Badge color="grape.9">{t('notMatchedMark')}</Badge>}
            </Group>
          ),
        },
        {
          key: 'bundle',
          header: t('bundle'),
          cell: (order) =>
            order.bundle && openBundle ? (
              <Button variant="subtle" size="compact-sm" onClick={() => openBundle(order.bundle!.id)}>
                {order.bundle.id} ({order.bundle.count})
              </Button>
            ) : (
              (order.bundle?.id ?? '—')
            ),
        },
        { key: 'price', header: t('priceDeclared'), cell: (order) => formatMoney(order.priceDeclared, locale) },
      ]}
    />
  );
}

function MarketplaceOrders({ marketplaces, generation }: { marketplaces: Marketplace[]; generation: number }) {
  const { t } = useText();
  const [list, setList] = useState(0);
  const [search, setSearch] = useState('');
  const [marketplace, setMarketplace] = useState<string | null>(null);
  const [shippingMode, setShippingMode] = useState<string | null>(null);
  const [dateFrom, setDateFrom] = useState('');
  const [dateTo, setDateTo] = useState('');
  const [expired, setExpired] = useState(false);
  const [page, setPage] = useState(1);
  const [bundle, setBundle] = useState<string | null>(null);
  const query = {
    list: list as 0 | 1 | 2 | 3 | 4 | 5,
    page,
    perPage: PER_PAGE,
    ...(search.trim() ? { search: search.trim() } : {}),
    ...(marketplace ? { marketplaces: [Number(marketplace)] } : {}),
    ...(shippingMode ? { shippingMode: Number(shippingMode) as 1 | 2 | 3 } : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(dateFrom) ? { dateFrom } : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(dateTo) ? { dateTo } : {}),
    ...(expired ? { marketplaceAcceptExpired: true } : {}),
  };
  const orders = useList(
    () => api.GET('/v2/marketplace-orders', { params: { query } }),
    `${JSON.stringify(query)}-${generation}`,
  );
  const bundleOrders = useList(
    () =>
      bundle
        ? api.GET('/v2/marketplace-orders/bundles', { params: { query: { id: bundle } } })
        : Promise.resolve({
            data: [] as MarketplaceOrder[],
            response: new Response(null, { headers: { 'X-Total-Count': '0' } }),
          }),
    `bundle-${bundle}`,
  );
  const change =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3} size="h4">
          {t('marketplaceOrders')}
        </Title>
        <Button variant="default" size="xs" onClick={orders.reload} data-testid="reload-marketplace-orders">
          {t('retry')}
        </Button>
      </Group>
      <Tabs value={String(list)} onChange={(value) => change(setList)(Number(value ?? 0))}>
        <Tabs.List>
          {LIST_NAMES.map((name, code) => (
            <Tabs.Tab key={name} value={String(code)}>
              {t(name)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <SimpleGrid cols={{ base: 1, sm: 3, lg: 6 }}>
        <TextInput
          label={t('searchMarketplaceOrders')}
          value={search}
          onChange={(event) => change(setSearch)(event.currentTarget.value)}
          data-testid="marketplace-search"
        />
        <Select
          label={t('marketplaces')}
          value={marketplace}
          onChange={change(setMarketplace)}
          data={marketplaces.map((one) => ({ value: String(one.id), label: one.name }))}
          clearable
        />
        <Select
          label={t('shipmentScheme')}
          value={shippingMode}
          onChange={change(setShippingMode)}
          data={SCHEMES.map((scheme, index) => ({ value: String(index + 1), label: scheme.label }))}
          clearable
        />
        <TextInput
          label={t('dateFrom')}
          placeholder="YYYY-MM-DD"
          value={dateFrom}
          onChange={(event) => change(setDateFrom)(event.currentTarget.value)}
        />
        <TextInput
          label={t('dateTo')}
          placeholder="YYYY-MM-DD"
          value={dateTo}
          onChange={(event) => change(setDateTo)(event.currentTarget.value)}
        />
        <Checkbox
          mt="xl"
          label={t('acceptOverdue')}
          checked={expired}
          onChange={(event) => change(setExpired)(event.currentTarget.checked)}
        />
      </SimpleGrid>
      <ApiError error={orders.error} />
      {/* no empty table: its rows are orders only (the tests and a reader count them) */}
      {orders.data?.length === 0 ? (
        <Text c="gray.7" data-testid="marketplace-orders-empty">
          {t('nothingYet')}
        </Text>
      ) : (
        <Card withBorder p={0} data-testid="marketplace-orders">
          <OrdersTable rows={orders.data} total={orders.total} page={page} setPage={setPage} openBundle={setBundle} />
        </Card>
      )}
      <Modal
        closeButtonProps={{ 'aria-label': t('closeDialog') }}
        opened={bundle !== null}
        onClose={() => setBundle(null)}
        size="xl"
        title={`${t('bundle')} ${bundle ?? ''}`}
      >
        <ApiError error={bundleOrders.error} />
        <OrdersTable rows={bundleOrders.data} total={bundleOrders.total} />
      </Modal>
    </Stack>
  );
}

/** A good sold on a marketplace with no catalogue product bound to it: choose the product, the binding is added. */
function MatchGood({ good, matched }: { good: UnmatchedGood; matched(): void }) {
  const { t } = useText();
  const [text, setText] = useState('');
  const found = useList(
    () => api.GET('/v2/products', { params: { query: { vendorCode: text.trim(), perPage: 20 } } }),
    `match-${text.trim()}`,
  );
  const action = useAction();
  const options = (found.data ?? []).map((product) => ({ value: `${product.vendorCode} · ${product.name}`, product }));
  const match = async (value: string) => {
    const product = options.find((option) => option.value === value)?.product;
    if (!product) return;
    const bindings = [...(product.bindings ?? []), { marketplaceId: good.marketplaceId, ...good.identifiers }];
    if (
      await action.run(async () =>
        ok(await api.PATCH('/v2/products/{id}', { params: { path: { id: product.id } }, body: { bindings } })),
      )
    )
      matched();
  };
  return (
    <Stack gap={4}>
      <Autocomplete
        aria-label={`${t('matchTo')} ${good.name}`}
        placeholder={t('matchTo')}
        value={text}
        onChange={setText}
        onOptionSubmit={(value) => void match(value)}
        data={options.map((option) => option.value)}
        data-testid={`match-${good.marketplaceId}-${Object.values(good.identifiers).join('-')}`}
      />
      <ApiError error={action.error} />
    </Stack>
  );
}

function NotMatched({ generation }: { generation: number }) {
  const { t } = useText();
  const [done, setDone] = useState<string[]>([]);
  const orders = useList(
    () => api.GET('/v2/marketplace-orders', { params: { query: { perPage: UNMATCHED_WINDOW } } }),
    `unmatched-${generation}`,
  );
  const goods = orders.data ? unmatchedGoods(orders.data).filter((good) => !done.includes(good.key)) : null;
  return (
    <Stack>
      <Title order={3} size="h4">
        {t('notMatched')}
      </Title>
      <Text size="sm">{t('notMatchedHint')}</Text>
      <ApiError error={orders.error} />
      <Card withBorder p={0} data-testid="not-matched">
        <DataTable
          rows={goods}
          rowKey={(good) => good.key}
          labels={{ empty: t('allMatched') }}
          columns={[
            { key: 'marketplace', header: t('marketplaces'), cell: (good) => good.marketplaceName },
            { key: 'name', header: t('name'), cell: (good) => good.name || '—' },
            {
              key: 'identifiers',
              header: t('identifiers'),
              cell: (good) =>
                Object.entries(good.identifiers)
                  .map(([name, value]) => `${name}: ${value}`)
                  .join(', '),
            },
            { key: 'orders', header: t('ordersCount'), cell: (good) => good.orders },
            {
              key: 'match',
              header: t('matchTo'),
              width: 320,
              cell: (good) => <MatchGood good={good} matched={() => setDone([...done, good.key])} />,
            },
          ]}
        />
      </Card>
    </Stack>
  );
}

export function MarketplacesPage() {
  const { t } = useText();
  const marketplaces = useList(() => api.GET('/v2/marketplaces'), 'marketplaces');
  const [generation, setGeneration] = useState(0);
  return (
    <Stack>
      <Title order={2}>{t('marketplaces')}</Title>
      <ApiError error={marketplaces.error} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {(marketplaces.data ?? []).map((marketplace) => (
          <ConnectCard
            key={`${marketplace.id}-${marketplace.connected}`}
            testId={`marketplace-${marketplace.id}`}
            name={marketplace.name}
            connected={marketplace.connected}
            params={marketplace.integrationParams}
            settings={<SchemeSettings marketplace={marketplace} changed={marketplaces.reload} />}
            connect={async (values) =>
              ok(
                await api.POST('/v2/marketplaces/integration/{id}', {
                  params: { path: { id: marketplace.id }, header: { 'Idempotency-Key': idempotencyKey() } },
                  body: values,
                }),
              )
            }
            disconnect={async () =>
              ok(await api.DELETE('/v2/marketplaces/integration/{id}', { params: { path: { id: marketplace.id } } }))
            }
            changed={() => (marketplaces.reload(), setGeneration((value) => value + 1))}
          />
        ))}
      </SimpleGrid>
      <MarketplaceOrders marketplaces={marketplaces.data ?? []} generation={generation} />
      <NotMatched generation={generation} />
    </Stack>
  );
}
