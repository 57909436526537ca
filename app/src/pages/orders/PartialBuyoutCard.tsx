/**
 * A partial buyout on the order's page (status 47): each line with the units bought and those
 * refused (which travel back with the parcel), and the sums: what was asked on delivery, what
 * was collected for the bought lines, and the company's commission on it.
 */
import { Card, Group, Table, Text, Title } from '@mantine/core';
import type { Order } from '../../api';
import { formatMoney } from '../../format';
import { useText } from '../../i18n';

export function PartialBuyoutCard({ buyout }: { buyout: NonNullable<Order['partialBuyout']> }) {
  const { t, locale } = useText();
  return (
    <Card withBorder data-testid="partial-buyout">
      <Title order={3} size="h5" mb="xs">
        {t('partialBuyout')}
      </Title>
      <Table.ScrollContainer minWidth={420}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('product')}</Table.Th>
              <Table.Th>{t('count')}</Table.Th>
              <Table.Th>{t('bought')}</Table.Th>
              <Table.Th>{t('refusedUnits')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {buyout.lines.map((line) => (
              <Table.Tr key={line.index} data-testid={`buyout-line-${line.index}`}>
                <Table.Td>
                  {line.vendorCode ? `${line.vendorCode} — ` : ''}
                  {line.name ?? '—'}
                </Table.Td>
                <Table.Td>{line.count}</Table.Td>
                <Table.Td>{line.bought}</Table.Td>
                <Table.Td c={line.refused > 0 ? 'red.8' : undefined}>{line.refused}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group mt="xs" gap="lg">
        <Text size="sm">
          {t('codAsked')}: {formatMoney(buyout.priceCod, locale)}
        </Text>
        <Text size="sm" fw={600} data-testid="buyout-collected">
          {t('codCollected')}: {formatMoney(buyout.collected, locale)}
        </Text>
        <Text size="sm">
          {t('codCommission')}: {formatMoney(buyout.commission, locale)}
        </Text>
      </Group>
      <Text size="xs" c="gray.7" mt="xs">
        {t('refusedTravelBack')}
      </Text>
    </Card>
  );
}
