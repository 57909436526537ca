/**
 * Reservations of fulfilment orders (contract 4.4: PUT /v2/orders/reservation/{id} and
 * reservation-cancel/{id}): drafts and confirmed orders by their reservation state — not reserved,
 * in reserve, released — and the preorders waiting for goods (the orders' list 9). Reserving an
 * order whose goods are short makes it a preorder; releasing gives its goods back to free stock.
 */
import { Anchor, Badge, Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, ok, type Order } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatInstant } from '../../format';
import { useText, type TextKey } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { statusNameOf, useReference } from '../../reference';
import { useSignedIn } from '../../session';

const PER_PAGE = 50;
/** Draft and confirmed: the only statuses whose reserve may change (the orders' rules). */
const OPEN_STATUSES = [11, 12];
/** The orders' list of preorders waiting for goods. */
const PREORDERS_LIST = 9 as const;
const RESERVATION = { none: 0, preorder: 1, reserved: 2, cancelled: 3 } as const;

type View = 'none' | 'preorders' | 'reserved' | 'cancelled';
const VIEWS: Array<{ value: View; label: TextKey }> = [
  { value: 'none', label: 'notReserved' },
  { value: 'preorders', label: 'preordersWaiting' },
  { value: 'reserved', label: 'reservation2' },
  { value: 'cancelled', label: 'released' },
];

function queryOf(view: View, page: number) {
  const paging = { page, perPage: PER_PAGE };
  if (view === 'preorders') return { list: PREORDERS_LIST, ...paging };
  return { list: 0 as const, statuses: OPEN_STATUSES, reservationStatus: RESERVATION[view], ...paging };
}

export function ReservationsPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const reference = useReference(locale);
  const [view, setView] = useState<View>('none');
  // four long labels do not fit side by side on a phone
  const narrow = useMediaQuery('(max-width: 48em)') ?? false;
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [view]);
  const query = queryOf(view, page);
  const orders = useList(() => api.GET('/v2/orders', { params: { query } }), JSON.stringify(query));
  const action = useAction();

  const change = async (order: Order, reserve: boolean) => {
    const path = { params: { path: { id: order.id } } };
    const done = await action.run(async () =>
      ok(
        reserve
          ? await api.PUT('/v2/orders/reservation/{id}', path)
          : await api.PUT('/v2/orders/reservation-cancel/{id}', path),
      ),
    );
    if (done) orders.reload();
  };
  const reservation = (key: number) => {
    const color = key === RESERVATION.reserved ? 'teal.9' : key === RESERVATION.preorder ? 'grape.9' : 'gray.7';
    return <Badge color={color}>{t(`reservation${key}` as TextKey)}</Badge>;
  };
  const columns: Array<DataTableColumn<Order>> = [
    {
      key: 'order',
      header: t('order'),
      cell: (order) => (
        <Anchor component={Link} to={`/orders/${order.id}`}>
          {order.cmsId ?? `#${order.id}`}
        </Anchor>
      ),
    },
    { key: 'created', header: t('date'), cell: (order) => formatInstant(order.creationDate, locale, session.timeZone) },
    {
      key: 'status',
      header: t('status'),
      cell: (order) => statusNameOf(reference, { code: order.status }),
    },
    {
      key: 'goods',
      header: t('goods'),
      cell: (order) =>
        order.products.map((product) => `${product.vendorCode ?? product.name} × ${product.count}`).join(', '),
    },
    { key: 'reservation', header: t('reservationStatus'), cell: (order) => reservation(order.reservationStatus.key) },
    {
      key: 'actions',
      header: t('actions'),
      cell: (order) => {
        if (order.fulfilment === false) return <Text size="sm">—</Text>;
        const key = order.reservationStatus.key;
        const name = order.cmsId ?? `#${order.id}`;
        return (
          <Group gap={4} wrap="nowrap">
            {key !== RESERVATION.reserved && (
              <Button size="xs" onClick={() => void change(order, true)} aria-label={`${t('reserve')} ${name}`}>
                {t('reserve')}
              </Button>
            )}
            {(key === RESERVATION.reserved || key === RESERVATION.preorder) && (
              <Button
                size="xs"
                variant="default"
                onClick={() => void change(order, false)}
                aria-label={`${t('release')} ${name}`}
              >
                {t('release')}
              </Button>
            )}
          </Group>
        );
      },
    },
  ];

  return (
    <Stack>
      <Title order={2}>{t('reservations')}</Title>
      <SegmentedControl
        value={view}
        onChange={(value) => setView(value as View)}
        data={VIEWS.map((item) => ({ value: item.value, label: t(item.label) }))}
        orientation={narrow ? 'vertical' : 'horizontal'}
        fullWidth={narrow}
        data-testid="reservation-view"
        aria-label={t('reservationStatus')}
      />
      <ApiError error={orders.error ?? action.error} />
      <DataTable
        testId="reservations"
        columns={columns}
        rows={orders.data}
        rowKey={(order) => order.id}
        rowProps={(order) => ({ 'data-order': String(order.id) })}
        labels={{ empty: t('nothingYet'), total: (count) => t('totalCount', { count }) }}
        paging={{ page, perPage: PER_PAGE, total: orders.total, onPage: setPage }}
      />
    </Stack>
  );
}
