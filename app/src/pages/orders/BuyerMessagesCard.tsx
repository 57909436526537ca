/**
 * What the order's buyer was sent (GET /v2/orders/{id}/buyer-messages): each moment and channel,
 * to whom, how it went (a coloured badge) and why, and when. Shown only when there is any: most
 * shops' orders have none, and an empty card would say nothing.
 */
import { Badge, Card, Text, Title } from '@mantine/core';
import { api, type Schemas } from '../../api';
import { DataTable } from '../../components/DataTable';
import { formatInstant } from '../../format';
import { useList } from '../../hooks/use-list';
import { type TextKey, useText } from '../../i18n';
import { useSignedIn } from '../../session';
import { CHANNELS, MOMENTS } from '../settings/buyer-messages/messages-model';

type BuyerMessage = Schemas['BuyerMessage'];

/** Dark shades: white badge text stays readable (4.5:1) on each. */
const STATUS_COLORS: Record<string, string> = {
  pending: 'gray.7',
  held: 'grape.9',
  sent: 'teal.9',
  delivered: 'green.9',
  failed: 'red.9',
  skipped: 'gray.8',
};
export function BuyerMessagesCard({ orderId }: { orderId: number }) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const messages = useList(
    () => api.GET('/v2/orders/{id}/buyer-messages', { params: { path: { id: orderId } } }),
    `order-buyer-messages-${orderId}`,
  );
  if (!messages.data || messages.data.length === 0) return null;
  // a word the dashboard does not know yet (a newer service) is shown as the service says it
  const word = (prefix: string, value: string, known: boolean) => (known ? t(`${prefix}${value}` as TextKey) : value);
  const when = (message: BuyerMessage) => {
    if (message.sentAt) return formatInstant(message.sentAt, locale, session.timeZone);
    const created = formatInstant(message.createdAt, locale, session.timeZone);
    return message.status === 'held'
      ? `${created}, ${t('bmSendAfter', { at: formatInstant(message.sendAfter, locale, session.timeZone) })}`
      : created;
  };
  return (
    <Card withBorder data-testid="order-buyer-messages">
      <Title order={3} size="h5" mb="xs">
        {t('bmOrderMessages')}
      </Title>
      <DataTable
        rows={messages.data}
        rowKey={(message) => message.id}
        minWidth={640}
        labels={{ empty: t('nothingYet') }}
        rowProps={(message) => ({
          'data-testid': 'order-buyer-message',
          'data-moment': message.moment,
          'data-channel': message.channel,
          'data-status': message.status,
        })}
        columns={[
          {
            key: 'moment',
            header: t('bmMoment'),
            cell: (message) => word('moment_', message.moment, (MOMENTS as readonly string[]).includes(message.moment)),
          },
          {
            key: 'status',
            header: t('status'),
            // wide enough for "ОТПРАВЛЕНО" whole: the moment's words wrap instead
            width: 150,
            cell: (message) => (
              <Badge color={STATUS_COLORS[message.status] ?? 'gray.7'} data-testid="order-buyer-message-status">
                {word('bmStatus_', message.status, message.status in STATUS_COLORS)}
              </Badge>
            ),
          },
          {
            key: 'channel',
            header: t('bmChannel'),
            cell: (message) => (
              <>
                <Text size="sm">
                  {word('bmChannel_', message.channel, (CHANNELS as readonly string[]).includes(message.channel))}
                </Text>
                <Text size="xs" c="gray.7">
                  {message.address}
                </Text>
              </>
            ),
          },
          { key: 'when', header: t('bmWhen'), cell: when },
          { key: 'reason', header: t('bmReason'), cell: (message) => message.reason ?? '' },
        ]}
      />
    </Card>
  );
}
