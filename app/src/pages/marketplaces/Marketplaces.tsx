/** Marketplaces: connect Ozon, Wildberries, Yandex Market or the sandbox with their parameters (shown masked after saving), disconnect; the marketplace orders. */
import { Button, Group, SimpleGrid, Stack, Table, Title } from '@mantine/core';
import { api, idempotencyKey, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatInstant, formatMoney } from '../../format';
import { useText } from '../../i18n';
import { ConnectCard } from '../../part2/ConnectCard';
import { useList } from '../../part2/use-list';
import { useSignedIn } from '../../session';

export function MarketplacesPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const marketplaces = useList(() => api.GET('/v2/marketplaces'), 'marketplaces');
  const orders = useList(
    () => api.GET('/v2/marketplace-orders', { params: { query: { perPage: 50 } } }),
    'marketplace-orders',
  );
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
            changed={() => (marketplaces.reload(), orders.reload())}
          />
        ))}
      </SimpleGrid>
      <Group justify="space-between">
        <Title order={3} size="h4">
          {t('marketplaceOrders')}
        </Title>
        <Button variant="default" size="xs" onClick={orders.reload} data-testid="reload-marketplace-orders">
          {t('retry')}
        </Button>
      </Group>
      <ApiError error={orders.error} />
      <Table.ScrollContainer minWidth={600}>
        <Table striped data-testid="marketplace-orders">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>{t('marketplaces')}</Table.Th>
              <Table.Th>{t('order')}</Table.Th>
              <Table.Th>{t('date')}</Table.Th>
              <Table.Th>{t('status')}</Table.Th>
              <Table.Th>{t('priceDeclared')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(orders.data ?? []).map((order) => (
              <Table.Tr key={order.id}>
                <Table.Td>{order.id}</Table.Td>
                <Table.Td>{order.marketplace?.name ?? '—'}</Table.Td>
                <Table.Td>{order.marketplaceOrderNumber}</Table.Td>
                <Table.Td>{formatInstant(order.marketplaceCreationDate, locale, session.timeZone)}</Table.Td>
                <Table.Td>{order.statusHistory[0]?.name ?? '—'}</Table.Td>
                <Table.Td>{formatMoney(order.priceDeclared, locale)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
