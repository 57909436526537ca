/**
 * One order: what can be done next (by its status), the status history, tracking, the company's
 * track link and the recipient's tracking page, tasks, the delivery price's breakdown, documents,
 * the messages its buyer was sent (BuyerMessagesCard.tsx), and its buyers' returns
 * (returns/OrderReturnsCard.tsx).
 */
import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Timeline, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ok, type Order, type Schemas } from '../../api';
import { findingWords } from './address-finding';
import { ApiError } from '../../components/ApiError';
import { formatDay, formatInstant, formatMoney } from '../../format';
import { useText, type TextKey } from '../../i18n';
import { fileHref, statusNameOf, useReference } from '../../reference';
import { useSignedIn } from '../../session';
import { OrderReturnsCard, ReturnParcelNote } from '../returns/OrderReturnsCard';
import { BuyerMessagesCard } from './BuyerMessagesCard';
import { ExtendHoldDialog } from './ExtendHoldDialog';
import { PartialBuyoutCard } from './PartialBuyoutCard';
import { nextActions, type OrderAction } from './order-actions';

export function OrderPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const reference = useReference(locale);
  const id = Number(useParams().id);
  const [order, setOrder] = useState<Order | null>(null);
  const [tracking, setTracking] = useState<Schemas['TrackingRecord'] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [extendHoldOpen, setExtendHoldOpen] = useState(false);

  const load = useCallback(() => {
    api.GET('/v2/orders/{id}', { params: { path: { id } } }).then((result) => {
      try {
        setOrder(ok(result));
      } catch (caught) {
        setError(caught);
      }
    }, setError);
    api.GET('/v2/tracking', { params: { query: { id } } }).then(
      (result) => setTracking(result.data ?? null),
      () => undefined,
    );
  }, [id]);
  useEffect(load, [load]);

  const act = async (action: OrderAction, days?: number) => {
    setActionError(null);
    setNotice(null);
    const ids = [id];
    try {
      if (action === 'sticker') {
        const { file } = ok(await api.POST('/v2/orders/stickers', { body: { ids, type: 1 } }));
        globalThis.open(fileHref(file), '_blank', 'noopener');
      } else if (action === 'confirm' || action === 'confirmPreorder')
        ok(await api.POST('/v2/orders/confirm', { body: { ids, preOrder: action === 'confirmPreorder' } }));
      else if (action === 'cancel') ok(await api.POST('/v2/orders/cancel', { body: { ids } }));
      else if (action === 'pack') ok(await api.POST('/v2/orders/pack', { body: { ids } }));
      else if (action === 'unpack') ok(await api.POST('/v2/orders/unpack', { body: { ids } }));
      else if (action === 'duplicate') ok(await api.POST('/v2/orders/duplicate', { body: { ids } }));
      else if (action === 'duplicateBack') ok(await api.POST('/v2/orders/duplicate-back', { body: { ids } }));
      else if (action === 'return') ok(await api.POST('/v2/orders/return', { body: { ids } }));
      else if (action === 'extendHold' && days !== undefined)
        ok(await api.POST('/v2/orders/extend-hold', { body: { ids, days } }));
      setNotice(`${t(action)}: ${t('done')}`);
      load();
    } catch (caught) {
      setActionError(caught);
    }
  };

  if (error) return <ApiError error={error} />;
  if (!order) return <Text>{t('loading')}</Text>;
  const status = order.statusHistory?.[0];
  const delivery = order.delivery;

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between">
        <Title order={2}>
          {t('order')} {order.id} {order.cmsId ? `(${order.cmsId})` : ''}
        </Title>
        <Badge size="lg" data-testid="order-status">
          {status ? statusNameOf(reference, status) : ''}
        </Badge>
      </Group>
      {order.returnOf && <ReturnParcelNote returnOf={order.returnOf} />}
      {order.error && (
        <Text c="red" data-testid="order-error">
          {t('problemReason')}: {order.error}
        </Text>
      )}
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('nextActions')}
        </Title>
        <Group gap="xs">
          {nextActions(order).map((action) =>
            action === 'edit' ? (
              <Button key={action} component={Link} to={`/orders/${order.id}/edit`} variant="default">
                {t('edit')}
              </Button>
            ) : (
              <Button
                key={action}
                variant={action === 'confirm' || action === 'sticker' ? 'filled' : 'default'}
                color={action === 'cancel' ? 'red' : undefined}
                // how many days is asked first, in a dialog
                onClick={() => (action === 'extendHold' ? setExtendHoldOpen(true) : void act(action))}
                data-testid={`action-${action}`}
              >
                {action === 'extendHold' ? t('extendHoldMenu') : t(action)}
              </Button>
            ),
          )}
        </Group>
        {extendHoldOpen && (
          <ExtendHoldDialog
            opened={extendHoldOpen}
            orderCount={1}
            onClose={() => setExtendHoldOpen(false)}
            onExtend={(days) => {
              setExtendHoldOpen(false);
              void act('extendHold', days);
            }}
          />
        )}
        {notice && (
          <Text c="green" mt="xs" role="status">
            {notice}
          </Text>
        )}
        <ApiError error={actionError} />
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('recipient')}
          </Title>
          <Text>{order.recipient?.fullName}</Text>
          <Text size="sm">{order.recipient?.phone}</Text>
          <Text size="sm">
            {[
              order.deliveryAddress?.city?.name,
              order.deliveryAddress?.street,
              order.deliveryAddress?.house,
              order.deliveryAddress?.flat,
            ]
              .filter(Boolean)
              .join(', ')}
          </Text>
          <AddressFinding register={order.deliveryAddress?.register} />
          <Text size="sm" mt="xs">
            {delivery?.company?.name} {delivery?.company?.tariff ? `· ${delivery.company.tariff}` : ''} ·{' '}
            {t(`type${delivery?.type ?? 1}` as TextKey)}
          </Text>
          {delivery?.point && <Text size="sm">{delivery.point.address}</Text>}
          <Text size="sm">
            {formatDay(delivery?.date?.from, locale)} – {formatDay(delivery?.date?.to, locale)}
          </Text>
          {delivery?.promise && (
            <Text size="sm" c={delivery.promise.late ? 'red.9' : undefined} data-testid="order-promise">
              {t(delivery.promise.late ? 'promiseLate' : 'promiseBy', {
                date: formatDay(delivery.promise.byDate, locale),
              })}{' '}
              ·{' '}
              {delivery.promise.basis === 'declared'
                ? t('promiseDeclared')
                : t('promiseMeasured', { parcels: String(delivery.promise.parcels) })}
            </Text>
          )}
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('breakdown')}
          </Title>
          <Table>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td>{t('deliveryPrice')}</Table.Td>
                <Table.Td>{formatMoney(delivery?.price, locale)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>{t('commissionDeclared')}</Table.Td>
                <Table.Td>{formatMoney(delivery?.priceCommissionDeclared, locale)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td>{t('commissionCod')}</Table.Td>
                <Table.Td>{formatMoney(delivery?.priceCommissionCod, locale)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td fw={700}>{t('totalPrice')}</Table.Td>
                <Table.Td fw={700}>{formatMoney(delivery?.totalPrice, locale)}</Table.Td>
              </Table.Tr>
              {delivery?.factPrice != null && (
                // as it turned out on delivery (a partial buyout: the COD commission on the collected sum only)
                <Table.Tr data-testid="fact-price">
                  <Table.Td>{t('factPrice')}</Table.Td>
                  <Table.Td>{formatMoney(delivery.factPrice, locale)}</Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('statusHistory')}
          </Title>
          <Timeline active={0} bulletSize={14} lineWidth={2}>
            {(order.statusHistory ?? []).map((item, index) => (
              <Timeline.Item key={index} title={statusNameOf(reference, item)}>
                <Text size="xs" c="gray.7">
                  {formatInstant(item.date, locale, session.timeZone)}
                </Text>
                {item.description && <Text size="xs">{item.description}</Text>}
              </Timeline.Item>
            ))}
          </Timeline>
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('tracking')}
          </Title>
          <Text size="sm" data-testid="track-number">
            {order.trackNumber ?? '—'}
          </Text>
          {order.trackingUrl && (
            // the service's tracking page (sealed link): what the recipient gets, with the company's status
            <Anchor
              href={order.trackingUrl}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              data-testid="recipient-page"
            >
              {t('recipientPage')}
            </Anchor>
          )}
          {tracking?.statusHistory?.[0] && (
            <Text size="xs" c="gray.7" data-testid="tracking-status">
              {statusNameOf(reference, tracking.statusHistory[0])}
            </Text>
          )}
          {(order.tasks ?? []).length > 0 && (
            <>
              <Title order={4} size="h6" mt="sm">
                {t('tasks')}
              </Title>
              {(order.tasks ?? []).map((task, index) => (
                <Text size="xs" key={index}>
                  {task.type} · {formatDay(task.date, locale)} · {task.status}
                  {task.days ? ` · ${task.days} ${t('days_')}` : ''}
                  {task.message ? ` · ${task.message}` : ''}
                </Text>
              ))}
            </>
          )}
          <Title order={4} size="h6" mt="sm">
            {t('documents')}
          </Title>
          <Text size="sm">
            {t('stickerFormed')}: {order.stickerFormed ? t('yes') : t('no')}
          </Text>
        </Card>
      </SimpleGrid>
      {order.partialBuyout && <PartialBuyoutCard buyout={order.partialBuyout} />}
      <OrderReturnsCard orderId={order.id} />
      <BuyerMessagesCard orderId={order.id} />
    </Stack>
  );
}

/**
 * What the federal address register made of a courier order's address, when a person should look
 * at it (less than a house, not recognised, not checked, or beyond the shop's own courier's
 * radius): the order stays confirmable, so this line is where staff see it before the courier goes.
 */
function AddressFinding({ register }: { register: Parameters<typeof findingWords>[0] }) {
  const { t } = useText();
  const words = findingWords(register);
  if (!words) return null;
  const text =
    words.key === 'addressPartlyFound'
      ? t(words.key, { level: t(words.level) })
      : words.key === 'addressBeyondRadius'
        ? t(words.key, { km: words.km, radius: words.radius })
        : words.key === 'addressFinding'
          ? t(words.key, { finding: words.finding })
          : t(words.key);
  return (
    <Text size="sm" c="red.9" data-testid="address-finding">
      {text}
    </Text>
  );
}
