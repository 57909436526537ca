/**
 * Orders: the contract's lists as tabs with their counts, every filter of GET /v2/orders, search,
 * server-side paging (X-Total-Count), selection across the page, and the batch operations with
 * each order's refusal next to it. The view lives in the URL (a reload keeps it).
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Collapse,
  Group,
  Menu,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, ok, totalOf, type Order } from '../../api';
import { batchErrorsOf, type BatchErrors } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ProblemFixes } from './ProblemFixes';
import { StickerJob, stickerSetOf } from './StickerJob';
import { formatInstant, formatMoney } from '../../format';
import { useText, type TextKey } from '../../i18n';
import {
  ALL_ORDERS,
  countFilters,
  FLAGS,
  LISTS,
  ordersQuery,
  PROBLEM_ORDERS,
  searchFromView,
  viewFromSearch,
  type ListCode,
  type OrdersView,
} from './order-filters';
import { fileHref, statusNameOf, useReference } from '../../reference';
import { useSignedIn } from '../../session';
import { stickerTypeKey } from '../documents/sticker-files';
import { ExtendHoldDialog } from './ExtendHoldDialog';
import { anyAllows, type OrderAction } from './order-actions';

// the waybills dialog (with its date input) loads when first opened, not with the list
const WaybillsDialog = lazy(() => import('./WaybillsDialog').then((module) => ({ default: module.WaybillsDialog })));

type BatchPath =
  | '/v2/orders/confirm'
  | '/v2/orders/cancel'
  | '/v2/orders/duplicate'
  | '/v2/orders/duplicate-back'
  | '/v2/orders/return'
  | '/v2/orders/pack'
  | '/v2/orders/unpack';

const BATCHES: Array<{ key: OrderAction; path: BatchPath; body?: { preOrder: boolean } }> = [
  { key: 'confirm', path: '/v2/orders/confirm' },
  { key: 'confirmPreorder', path: '/v2/orders/confirm', body: { preOrder: true } },
  { key: 'pack', path: '/v2/orders/pack' },
  { key: 'unpack', path: '/v2/orders/unpack' },
  { key: 'duplicate', path: '/v2/orders/duplicate' },
  { key: 'duplicateBack', path: '/v2/orders/duplicate-back' },
  { key: 'return', path: '/v2/orders/return' },
  { key: 'cancel', path: '/v2/orders/cancel' },
];

function useOrders(view: OrdersView) {
  const [orders, setOrders] = useState<Order[] | null>(null);
  const [total, setTotal] = useState(0);
  const [counts, setCounts] = useState<Partial<Record<ListCode, number>>>({});
  const [error, setError] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  const key = searchFromView(view).toString();

  useEffect(() => {
    let live = true;
    setError(null);
    api.GET('/v2/orders', { params: { query: ordersQuery(view) } }).then(
      (result) => {
        if (!live) return;
        try {
          setOrders(ok(result));
          setTotal(totalOf(result.response));
        } catch (caught) {
          setError(caught);
        }
      },
      (caught: unknown) => live && setError(caught),
    );
    // the tabs' counts under the same filters: one row each, the total in X-Total-Count
    Promise.all(
      LISTS.map((list) =>
        api
          .GET('/v2/orders', { params: { query: { ...ordersQuery(view, list), page: 1, perPage: 1 } } })
          .then((result) => [list, result.response.ok ? totalOf(result.response) : undefined] as const),
      ),
    ).then(
      (pairs) => live && setCounts(Object.fromEntries(pairs.filter(([, count]) => count !== undefined))),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, generation]);

  return { orders, total, counts, error, reload: () => setGeneration((value) => value + 1) };
}

function Filters({ view, change }: { view: OrdersView; change(filters: OrdersView['filters']): void }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const f = view.filters;
  const set = (patch: Partial<OrdersView['filters']>) => change({ ...f, ...patch });
  const flag = (value: string | null) => (value === '1' ? 1 : value === '0' ? 0 : undefined) as 0 | 1 | undefined;
  const flagData = [
    { value: '1', label: t('yes') },
    { value: '0', label: t('no') },
  ];
  const numberOrUndefined = (value: string | null) => (value ? Number(value) : undefined);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="xs" data-testid="filters">
      <Select
        label={t('deliveryType')}
        clearable
        placeholder={t('any')}
        value={f.deliveryType ? String(f.deliveryType) : null}
        onChange={(value) => set({ deliveryType: numberOrUndefined(value) as 1 | 2 | 3 | undefined })}
        data={[1, 2, 3].map((type) => ({ value: String(type), label: t(`type${type}` as TextKey) }))}
      />
      <Select
        label={t('shop')}
        clearable
        placeholder={t('any')}
        value={f.shopId !== undefined ? String(f.shopId) : null}
        onChange={(value) => set({ shopId: numberOrUndefined(value) })}
        data={(reference?.shops ?? []).map((shop) => ({ value: String(shop.id), label: shop.name }))}
      />
      <Select
        label={t('warehouse')}
        clearable
        placeholder={t('any')}
        value={f.warehouseId !== undefined ? String(f.warehouseId) : null}
        onChange={(value) => set({ warehouseId: numberOrUndefined(value) })}
        data={(reference?.warehouses ?? []).map((warehouse) => ({
          value: String(warehouse.id),
          label: warehouse.name,
        }))}
      />
      <MultiSelect
        label={t('companies')}
        clearable
        placeholder={t('any')}
        value={(f.deliveryCompanies ?? []).map(String)}
        onChange={(values) =>
          set({ deliveryCompanies: values.map((value) => (/^\d+$/.test(value) ? Number(value) : value)) })
        }
        data={(reference?.companies ?? []).map((company) => ({ value: String(company.id), label: company.name }))}
      />
      <TextInput
        label={t('dateFrom')}
        type="date"
        value={f.dateFrom ?? ''}
        onChange={(event) => set({ dateFrom: event.currentTarget.value || undefined })}
      />
      <TextInput
        label={t('dateTo')}
        type="date"
        value={f.dateTo ?? ''}
        onChange={(event) => set({ dateTo: event.currentTarget.value || undefined })}
      />
      <MultiSelect
        label={t('statuses')}
        clearable
        searchable
        placeholder={t('any')}
        value={(f.statuses ?? []).map(String)}
        onChange={(values) => set({ statuses: values.map(Number) })}
        data={Object.entries(reference?.statuses ?? {}).map(([code, name]) => ({
          value: code,
          label: `${code} ${name}`,
        }))}
      />
      <MultiSelect
        label={t('paymentMethods')}
        clearable
        placeholder={t('any')}
        value={(f.paymentMethods ?? []).map(String)}
        onChange={(values) => set({ paymentMethods: values.map(Number) })}
        data={[1, 2, 3].map((code) => ({ value: String(code), label: t(`pay${code}` as TextKey) }))}
      />
      <TextInput
        label={t('recipientCity')}
        value={f.recipientCity ?? ''}
        onChange={(event) => set({ recipientCity: event.currentTarget.value || undefined })}
      />
      <TextInput
        label={t('recipientCountry')}
        maxLength={2}
        value={f.recipientCountry ?? ''}
        onChange={(event) => set({ recipientCountry: event.currentTarget.value.toUpperCase() || undefined })}
      />
      <Select
        label={t('reservationStatus')}
        clearable
        placeholder={t('any')}
        value={f.reservationStatus !== undefined ? String(f.reservationStatus) : null}
        onChange={(value) => set({ reservationStatus: numberOrUndefined(value) as 0 | 1 | 2 | 3 | undefined })}
        data={[0, 1, 2, 3].map((code) => ({ value: String(code), label: t(`reservation${code}` as TextKey) }))}
      />
      {FLAGS.map((name) => (
        <Select
          key={name}
          label={t(name)}
          clearable
          placeholder={t('any')}
          value={f[name] !== undefined ? String(f[name]) : null}
          onChange={(value) => set({ [name]: flag(value) })}
          data={flagData}
        />
      ))}
    </SimpleGrid>
  );
}

export function OrdersPage({ problems = false }: { problems?: boolean }) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const reference = useReference(locale);
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => viewFromSearch(params, problems ? PROBLEM_ORDERS : ALL_ORDERS), [params, problems]);
  const { orders, total, counts, error, reload } = useOrders(view);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [rowErrors, setRowErrors] = useState<BatchErrors>(new Map());
  const [batchError, setBatchError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [waybillsOpen, setWaybillsOpen] = useState(false);
  const [stickerJob, setStickerJob] = useState<string | null>(null);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [extendHoldOpen, setExtendHoldOpen] = useState(false);
  const [searchText, setSearchText] = useState(view.filters.search ?? '');
  const [debouncedSearch] = useDebouncedValue(searchText, 350);

  const go = useCallback((next: OrdersView) => setParams(searchFromView(next)), [setParams]);
  useEffect(() => {
    if ((view.filters.search ?? '') !== debouncedSearch.trim())
      go({ ...view, page: 1, filters: { ...view.filters, search: debouncedSearch.trim() || undefined } });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedSearch]);
  // a new list or page (or the problems page): the selection and the old errors are of other rows
  useEffect(() => {
    setSelected(new Set());
    setRowErrors(new Map());
  }, [view.list, view.page]);

  const runBatch = async (label: string, call: () => Promise<{ error?: unknown; response: Response }>) => {
    setBusy(true);
    setBatchError(null);
    setDone(null);
    try {
      ok(await call());
      setRowErrors(new Map());
      setSelected(new Set());
      setDone(`${label}: ${t('done')}`);
      reload();
    } catch (caught) {
      const perOrder = batchErrorsOf(caught);
      setRowErrors(perOrder);
      setBatchError(caught);
    } finally {
      setBusy(false);
    }
  };
  const ids = [...selected];
  // the batch menu offers what at least one chosen order allows (order-actions.ts decides)
  const chosenOrders = (orders ?? []).filter((order) => selected.has(order.id));
  const offers = (action: OrderAction) => anyAllows(action, chosenOrders);
  const openFile = async (call: () => Promise<{ data?: { file: string }; error?: unknown; response: Response }>) => {
    setBatchError(null);
    try {
      const { file } = ok(await call());
      globalThis.open(fileHref(file), '_blank', 'noopener');
      setDone(t('done'));
      reload();
    } catch (caught) {
      setRowErrors(batchErrorsOf(caught));
      setBatchError(caught);
    }
  };

  const columns: Array<DataTableColumn<Order>> = [
    {
      key: 'id',
      header: t('id'),
      cell: (order) => (
        <Anchor component={Link} to={`/orders/${order.id}`}>
          {order.id}
        </Anchor>
      ),
    },
    {
      key: 'created',
      header: t('created'),
      cell: (order) => formatInstant(order.creationDate, locale, session.timeZone),
    },
    { key: 'cmsId', header: t('cmsId'), cell: (order) => order.cmsId ?? '—' },
    { key: 'recipient', header: t('recipient'), cell: (order) => order.recipient?.fullName },
    { key: 'city', header: t('city'), cell: (order) => order.deliveryAddress?.city?.name },
    {
      key: 'company',
      header: t('company'),
      cell: (order) =>
        order.delivery?.company?.name ??
        reference?.companies.find((company) => company.id === order.delivery?.company?.id)?.name,
    },
    {
      key: 'status',
      header: t('status'),
      cell: (order) => {
        const status = order.statusHistory?.[0];
        return status ? statusNameOf(reference, status) : '—';
      },
    },
    { key: 'price', header: t('price'), cell: (order) => formatMoney(order.delivery?.totalPrice, locale) },
    {
      key: 'error',
      header: t('error'),
      // a long refusal stays readable: the table scrolls sideways instead of the page
      cell: (order) => rowErrors.get(order.id) ?? order.error ?? '',
      cellProps: (order) => ({
        className: (rowErrors.get(order.id) ?? order.error) ? 'row-error' : undefined,
        'data-testid': rowErrors.has(order.id) ? 'row-error' : undefined,
      }),
    },
    ...(problems
      ? [
          {
            key: 'fix',
            header: t('fix'),
            cell: (order: Order) => (
              <ProblemFixes orderId={order.id} pickup={order.delivery?.type === 1} fixed={reload} />
            ),
          },
        ]
      : []),
  ];

  // stickers: a small set opens at once; a set written by a job shows its progress instead
  const printStickers = async (type?: 1 | 2 | 3) => {
    setBatchError(null);
    setDone(null);
    try {
      const { file } = ok(await api.POST('/v2/orders/stickers', { body: { ids, ...(type ? { type } : {}) } }));
      const set = await stickerSetOf(file);
      if (set?.status === 'pending') setStickerJob(file);
      else {
        globalThis.open(fileHref(file), '_blank', 'noopener');
        setDone(t('done'));
      }
      reload();
    } catch (caught) {
      setRowErrors(batchErrorsOf(caught));
      setBatchError(caught);
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2}>{problems ? t('problems') : t('orders')}</Title>
        <Button component={Link} to="/orders/new">
          {t('newOrder')}
        </Button>
      </Group>
      {!problems && (
        <Tabs value={String(view.list)} onChange={(value) => go({ ...view, list: Number(value) as ListCode, page: 1 })}>
          <Tabs.List>
            {LISTS.map((list) => (
              <Tabs.Tab
                key={list}
                value={String(list)}
                data-testid={`tab-${list}`}
                rightSection={
                  <Badge size="sm" variant="light" data-testid={`count-${list}`}>
                    {counts[list] ?? '…'}
                  </Badge>
                }
              >
                {t(`list${list}` as TextKey)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      )}
      <Group align="end" wrap="wrap">
        <TextInput
          aria-label={t('search')}
          placeholder={t('search')}
          value={searchText}
          onChange={(event) => setSearchText(event.currentTarget.value)}
          w={{ base: '100%', sm: 420 }}
          data-testid="search"
        />
        <Button
          variant="default"
          onClick={() => setFiltersOpen((open) => !open)}
          aria-expanded={filtersOpen}
          data-testid="filters-toggle"
        >
          {t('filters')}
          {countFilters(view) > 0 ? ` (${countFilters(view)})` : ''}
        </Button>
        {countFilters(view) > 0 && (
          <Button variant="subtle" onClick={() => go({ ...view, page: 1, filters: { search: view.filters.search } })}>
            {t('clearFilters')}
          </Button>
        )}
      </Group>
      <Collapse expanded={filtersOpen}>
        <Filters view={view} change={(filters) => go({ ...view, page: 1, filters })} />
      </Collapse>

      <Group gap="xs" data-testid="batch-bar">
        <Text size="sm">
          {selected.size} {t('selected')}
        </Text>
        <Menu>
          <Menu.Target>
            <Button size="xs" disabled={selected.size === 0 || busy} data-testid="batch-menu">
              {t('actions')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {BATCHES.map((batch) => (
              <Menu.Item
                key={batch.key}
                data-testid={`batch-${batch.key}`}
                disabled={!offers(batch.key)}
                onClick={() =>
                  void runBatch(t(batch.key), () => api.POST(batch.path, { body: { ids, ...batch.body } }))
                }
              >
                {t(batch.key)}
              </Menu.Item>
            ))}
            <Menu.Item
              data-testid="batch-extendHold"
              disabled={!offers('extendHold')}
              onClick={() => setExtendHoldOpen(true)}
            >
              {t('extendHoldMenu')}
            </Menu.Item>
            <Menu.Divider />
            {([1, 2, 3] as const).map((type) => (
              <Menu.Item
                key={type}
                data-testid={type === 1 ? 'batch-stickers' : `batch-stickers-${type}`}
                disabled={!offers('sticker')}
                onClick={() => void printStickers(type)}
              >
                {t(stickerTypeKey(type))}
              </Menu.Item>
            ))}
            <Menu.Item
              data-testid="batch-stickers-all"
              disabled={!offers('sticker')}
              onClick={() => void printStickers()}
            >
              {t('stickers')}: {t('allFormats')}
            </Menu.Item>
            <Menu.Item onClick={() => void openFile(() => api.POST('/v2/orders/act-assembly', { body: { ids } }))}>
              {t('assemblyStatement')}
            </Menu.Item>
            <Menu.Item data-testid="batch-waybills" disabled={!offers('sticker')} onClick={() => setWaybillsOpen(true)}>
              {t('formWaybills')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      {extendHoldOpen && (
        <ExtendHoldDialog
          opened={extendHoldOpen}
          orderCount={ids.length}
          onClose={() => setExtendHoldOpen(false)}
          onExtend={(days) => {
            setExtendHoldOpen(false);
            void runBatch(t('extendHold'), () => api.POST('/v2/orders/extend-hold', { body: { ids, days } }));
          }}
        />
      )}
      {batchError !== null && (
        <>
          {rowErrors.size > 0 && (
            <Alert color="red" role="alert" data-testid="batch-failed">
              {t('batchFailed')}
            </Alert>
          )}
          <ApiError error={batchError} />
        </>
      )}
      {done && (
        <Alert color="green" role="status" withCloseButton onClose={() => setDone(null)} data-testid="batch-done">
          {done}
        </Alert>
      )}
      {stickerJob && <StickerJob file={stickerJob} onClose={() => setStickerJob(null)} />}
      {waybillsOpen && (
        <Suspense fallback={null}>
          <WaybillsDialog
            ids={ids}
            opened={waybillsOpen}
            onClose={() => setWaybillsOpen(false)}
            onFormed={(refused) => {
              setRowErrors(refused);
              reload();
            }}
          />
        </Suspense>
      )}
      <ApiError error={error} />

      <DataTable
        testId="orders-table"
        minWidth={1000}
        columns={columns}
        rows={orders}
        rowKey={(order) => order.id}
        rowProps={(order) => ({ 'data-order': String(order.id) })}
        selection={{ selected, onChange: setSelected }}
        labels={{
          empty: t('nothingFound'),
          selectPage: t('selectPage'),
          selectRow: (order) => `${t('selectOrder')} ${order.id}`,
          perPage: t('perPage'),
          total: (count) => `${t('total')}: ${count}`,
        }}
        paging={{
          page: view.page,
          perPage: view.perPage,
          total,
          onPage: (page) => go({ ...view, page }),
          perPageOptions: [20, 50, 100, 200],
          onPerPage: (perPage) => go({ ...view, page: 1, perPage }),
        }}
      />
    </Stack>
  );
}
