/**
 * Returns (GET /v2/returns): newest first, filtered by status, shop and the days they were
 * started, paged by the server (X-Total-Count) like the orders list; each row links to the
 * return's page and to its order. The view lives in the URL (a reload keeps it).
 */
import { Anchor, Button, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatInstant, formatMoney } from '../../format';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';
import { useReference } from '../../reference';
import { useSignedIn } from '../../session';
import {
  PER_PAGE_OPTIONS,
  RETURN_STATUSES,
  type Return,
  type ReturnsView,
  searchFromView,
  viewFromSearch,
  wordOf,
} from './return-model';
import { ReturnStatusBadge } from './ReturnStatusBadge';

function Filters({ view, go }: { view: ReturnsView; go(view: ReturnsView): void }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const set = (patch: Partial<ReturnsView>) => go({ ...view, ...patch, page: 1 });
  return (
    // four filters: two a row on a phone, so the list starts within the first screen
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="xs" data-testid="return-filters">
      <Select
        label={t('status')}
        clearable
        placeholder={t('rtAnyStatus')}
        value={view.status ?? null}
        onChange={(value) => set({ status: (value ?? undefined) as ReturnsView['status'] })}
        data={RETURN_STATUSES.map((status) => ({ value: status, label: t(`rtStatus_${status}`) }))}
        data-testid="return-status-filter"
      />
      <Select
        label={t('shop')}
        clearable
        placeholder={t('any')}
        value={view.shopId !== undefined ? String(view.shopId) : null}
        onChange={(value) => set({ shopId: value ? Number(value) : undefined })}
        data={(reference?.shops ?? []).map((shop) => ({ value: String(shop.id), label: shop.name }))}
      />
      <TextInput
        label={t('dateFrom')}
        type="date"
        value={view.dateFrom ?? ''}
        onChange={(event) => set({ dateFrom: event.currentTarget.value || undefined })}
      />
      <TextInput
        label={t('dateTo')}
        type="date"
        value={view.dateTo ?? ''}
        onChange={(event) => set({ dateTo: event.currentTarget.value || undefined })}
      />
    </SimpleGrid>
  );
}

export function ReturnsPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => viewFromSearch(params), [params]);
  const go = (next: ReturnsView) => setParams(searchFromView(next));
  const key = searchFromView(view).toString();
  const returns = useList(
    () =>
      api.GET('/v2/returns', {
        params: {
          query: {
            page: view.page,
            perPage: view.perPage,
            status: view.status,
            shopId: view.shopId,
            dateFrom: view.dateFrom,
            dateTo: view.dateTo,
          },
        },
      }),
    `returns-${key}`,
  );
  const filtered = view.status !== undefined || view.shopId !== undefined || view.dateFrom || view.dateTo;

  const columns: Array<DataTableColumn<Return>> = [
    {
      key: 'code',
      header: t('rtCode'),
      cell: (item) => (
        <Anchor component={Link} to={`/returns/${item.id}`} data-testid="return-link" ff="monospace">
          {item.code}
        </Anchor>
      ),
    },
    {
      key: 'order',
      header: t('rtOrder'),
      cell: (item) => (
        <Anchor component={Link} to={`/orders/${item.orderId}`} style={{ whiteSpace: 'nowrap' }}>
          {item.orderNumber ? `${item.orderNumber} (${item.orderId})` : item.orderId}
        </Anchor>
      ),
    },
    { key: 'created', header: t('rtCreated'), cell: (item) => formatInstant(item.createdAt, locale, session.timeZone) },
    { key: 'status', header: t('status'), width: 150, cell: (item) => <ReturnStatusBadge status={item.status} /> },
    { key: 'goods', header: t('rtGoodsSum'), cell: (item) => formatMoney(item.goodsSum, locale) },
    { key: 'cost', header: t('rtCost'), cell: (item) => formatMoney(item.cost, locale) },
    { key: 'payer', header: t('rtPayer'), cell: (item) => wordOf(t, 'rtPayer_', item.payer, ['shop', 'buyer']) },
  ];

  return (
    <Stack gap="sm">
      <Title order={2}>{t('rtReturns')}</Title>
      <Filters view={view} go={go} />
      {filtered && (
        <Button variant="subtle" w="fit-content" onClick={() => go({ page: 1, perPage: view.perPage })}>
          {t('clearFilters')}
        </Button>
      )}
      <ApiError error={returns.error} />
      <DataTable
        testId="returns-table"
        minWidth={760}
        columns={columns}
        rows={returns.data}
        rowKey={(item) => item.id}
        rowProps={(item) => ({ 'data-return': String(item.id) })}
        labels={{
          empty: t('rtNone'),
          perPage: t('perPage'),
          total: (count) => `${t('total')}: ${count}`,
        }}
        paging={{
          page: view.page,
          perPage: view.perPage,
          total: returns.total,
          onPage: (page) => go({ ...view, page }),
          perPageOptions: PER_PAGE_OPTIONS,
          onPerPage: (perPage) => go({ ...view, page: 1, perPage }),
        }}
      />
    </Stack>
  );
}
