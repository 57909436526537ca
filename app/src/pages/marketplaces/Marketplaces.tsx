/** Marketplaces: connect Ozon, Wildberries, Yandex Market or the sandbox with their parameters (shown masked after saving), disconnect; the marketplace orders. */
import { Badge, Button, Card, Group, PasswordInput, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatInstant, formatMoney } from '../../format';
import { useText } from '../../i18n';
import { useAction, useList } from '../../part2/use-list';
import { useSignedIn } from '../../session';

type Marketplace = Schemas['Marketplace'];

function MarketplaceCard({ marketplace, changed }: { marketplace: Marketplace; changed(): void }) {
  const { t, locale } = useText();
  const [values, setValues] = useState<Record<string, string>>({});
  const action = useAction();
  const error = action.error;
  const run = async (call: () => Promise<unknown>) => {
    if (!(await action.run(call))) return;
    setValues({});
    changed();
  };
  const connect = () => run(async () => ok(await api.POST('/v2/marketplaces/integration/{id}', { params: { path: { id: marketplace.id }, header: { 'Idempotency-Key': idempotencyKey() } }, body: values })));
  const disconnect = () => run(async () => ok(await api.DELETE('/v2/marketplaces/integration/{id}', { params: { path: { id: marketplace.id } } })));
  return (
    <Card withBorder data-testid={`marketplace-${marketplace.id}`}>
      <Group justify="space-between">
        <Title order={3} size="h5">
          {marketplace.name}
        </Title>
        {marketplace.connected && (
          <Badge color="teal.9">
            {t('connected')}
          </Badge>
        )}
      </Group>
      <Stack gap="xs" mt="xs">
        {marketplace.integrationParams.map((param) =>
          marketplace.connected ? (
            <Text key={param.key} size="sm">
              {param.name[locale]}: <code>{param.value}</code>
            </Text>
          ) : (
            <PasswordInput key={param.key} label={param.name[locale]} value={values[param.key] ?? ''} onChange={(event) => setValues({ ...values, [param.key]: event.currentTarget.value })} />
          ),
        )}
      </Stack>
      <Group mt="sm">
        {marketplace.connected ? (
          <Button color="red" variant="light" onClick={() => void disconnect()}>
            {t('disconnect')}
          </Button>
        ) : (
          <Button onClick={() => void connect()} data-testid={`connect-${marketplace.id}`}>
            {t('connect')}
          </Button>
        )}
      </Group>
      <ApiError error={error} />
    </Card>
  );
}

export function MarketplacesPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const marketplaces = useList(() => api.GET('/v2/marketplaces'), 'marketplaces');
  const orders = useList(() => api.GET('/v2/marketplace-orders', { params: { query: { perPage: 50 } } }), 'marketplace-orders');
  return (
    <Stack>
      <Title order={2}>{t('marketplaces')}</Title>
      <ApiError error={marketplaces.error} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {(marketplaces.data ?? []).map((marketplace) => (
          <MarketplaceCard key={`${marketplace.id}-${marketplace.connected}`} marketplace={marketplace} changed={() => (marketplaces.reload(), orders.reload())} />
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
