/**
 * The returns of an order on its page (GET /v2/returns?orderId=): each one's code (a link to
 * its page), status, when it was started and its goods. Shown only when there is any: most
 * orders have none, and an empty card would say nothing. And, on a return parcel's own order
 * page, the return it carries back.
 */
import { Anchor, Card, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { api } from '../../api';
import { DataTable } from '../../components/DataTable';
import { formatInstant, formatMoney } from '../../format';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';
import { useSignedIn } from '../../session';
import { ReturnStatusBadge } from './ReturnStatusBadge';

export function OrderReturnsCard({ orderId }: { orderId: number }) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const returns = useList(
    () => api.GET('/v2/returns', { params: { query: { orderId, perPage: 100 } } }),
    `order-returns-${orderId}`,
  );
  if (!returns.data || returns.data.length === 0) return null;
  return (
    <Card withBorder data-testid="order-returns">
      <Title order={3} size="h5" mb="xs">
        {t('rtOrderReturns')}
      </Title>
      <DataTable
        rows={returns.data}
        rowKey={(item) => item.id}
        minWidth={520}
        labels={{ empty: t('rtNone') }}
        rowProps={(item) => ({ 'data-return': String(item.id) })}
        columns={[
          {
            key: 'code',
            header: t('rtCode'),
            cell: (item) => (
              <Anchor component={Link} to={`/returns/${item.id}`} ff="monospace" data-testid="order-return-link">
                {item.code}
              </Anchor>
            ),
          },
          {
            key: 'status',
            header: t('status'),
            width: 150,
            cell: (item) => <ReturnStatusBadge status={item.status} />,
          },
          {
            key: 'created',
            header: t('rtCreated'),
            cell: (item) => formatInstant(item.createdAt, locale, session.timeZone),
          },
          { key: 'goods', header: t('rtGoodsSum'), cell: (item) => formatMoney(item.goodsSum, locale) },
        ]}
      />
    </Card>
  );
}

/** On the order page of a return parcel (returnOf): the return it carries back, and the order it comes from. */
export function ReturnParcelNote({ returnOf }: { returnOf: { returnId: number; orderId: number } }) {
  const { t } = useText();
  return (
    <Text size="sm" data-testid="return-parcel-of">
      {t('rtParcelOf')}{' '}
      <Anchor component={Link} to={`/returns/${returnOf.returnId}`}>
        {t('rtReturn')} {returnOf.returnId}
      </Anchor>
      {' · '}
      <Anchor component={Link} to={`/orders/${returnOf.orderId}`}>
        {t('rtOrder')} {returnOf.orderId}
      </Anchor>
    </Text>
  );
}
