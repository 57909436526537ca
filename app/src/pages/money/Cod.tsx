/**
 * Cash on delivery: what buyers paid couriers and points for the account's delivered orders,
 * owed (delivered, the money not yet received by the shop) and paid (received). Both lists are
 * GET /v2/orders with withCod=1 and codReceived=0 or 1; the agent reports of the cash-on-delivery
 * type (the documents that settle the money) are on the bills page.
 */
import { Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { formatMoney } from '../../format';
import { useText } from '../../i18n';
import { useList } from '../../hooks/use-list';

const PER_PAGE = 50;

export function CodPage() {
  const { t, locale } = useText();
  const [received, setReceived] = useState<0 | 1>(0);
  const [page, setPage] = useState(1);
  const orders = useList(
    () =>
      api.GET('/v2/orders', {
        params: { query: { list: 0, withCod: 1, codReceived: received, page, perPage: PER_PAGE } },
      }),
    `cod-${received}-${page}`,
  );
  const rows = orders.data;
  const pageSum = (rows ?? []).reduce((sum, order) => sum + Number(order.priceCod ?? 0), 0);
  return (
    <Stack>
      <Title order={2}>{t('cod')}</Title>
      <Text size="sm">{t('codHint')}</Text>
      <Group justify="space-between">
        <SegmentedControl
          value={String(received)}
          onChange={(value) => {
            setReceived(value === '1' ? 1 : 0);
            setPage(1);
          }}
          data={[
            { value: '0', label: t('codOwed') },
            { value: '1', label: t('codPaid') },
          ]}
          data-testid="cod-received"
        />
        <Text fw={700} data-testid="cod-sum">
          {t('codPageSum', { count: rows?.length ?? 0, sum: formatMoney(pageSum, locale) })}
        </Text>
      </Group>
      <ApiError error={orders.error} />
      <Card withBorder p={0}>
        <DataTable
          rows={rows}
          rowKey={(order) => order.id}
          labels={{ empty: t('nothingYet'), total: (total) => t('codTotal', { total }) }}
          paging={{ page, perPage: PER_PAGE, total: orders.total, onPage: setPage }}
          columns={[
            { key: 'id', header: '#', cell: (order) => <Link to={`/orders/${order.id}`}>{order.id}</Link> },
            { key: 'cmsId', header: t('order'), cell: (order) => order.cmsId ?? '—' },
            { key: 'recipient', header: t('recipient'), cell: (order) => order.recipient.fullName },
            { key: 'status', header: t('status'), cell: (order) => order.statusHistory[0]?.name ?? order.status },
            {
              key: 'cod',
              header: t('codAmount'),
              cell: (order) => formatMoney(order.priceCod, locale),
              cellProps: (order) => ({ 'data-testid': `cod-${order.id}` }),
            },
          ]}
        />
      </Card>
    </Stack>
  );
}
