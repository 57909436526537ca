/** Notifications with the unread ones first in mind: mark read one by one or all of the page. */
import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, ok, totalOf, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatInstant } from '../../format';
import { useText } from '../../i18n';
import { useSignedIn } from '../../session';

export function NotificationsPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const [items, setItems] = useState<Schemas['Notification'][]>([]);
  const [unread, setUnread] = useState(0);
  const [error, setError] = useState<unknown>(null);

  const load = useCallback(() => {
    api.GET('/v2/notifications', { params: { query: { perPage: 100 } } }).then((result) => {
      try {
        setItems(ok(result));
      } catch (caught) {
        setError(caught);
      }
    }, setError);
    api.GET('/v2/notifications', { params: { query: { unread: 1, perPage: 1 } } }).then(
      (result) => setUnread(totalOf(result.response)),
      () => undefined,
    );
  }, []);
  useEffect(load, [load]);

  const markRead = async (ids: number[]) => {
    if (ids.length === 0) return;
    try {
      ok(await api.POST('/v2/notifications/read', { body: { ids } }));
      load();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between">
        <Title order={2}>
          {t('notifications')} <Badge color={unread > 0 ? 'red' : 'gray'}>{`${unread} ${t('unread')}`}</Badge>
        </Title>
        <Button
          variant="default"
          disabled={unread === 0}
          onClick={() => void markRead(items.filter((item) => !item.read).map((item) => item.id))}
        >
          {t('markRead')}
        </Button>
      </Group>
      <ApiError error={error} />
      {items.length === 0 && <Text c="gray.7">{t('noNotifications')}</Text>}
      <Table>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id} fw={item.read ? undefined : 600}>
              <Table.Td>{formatInstant(item.createdAt, locale, session.timeZone)}</Table.Td>
              <Table.Td>{item.text}</Table.Td>
              <Table.Td>
                {item.orderId !== null && (
                  <Anchor component={Link} to={`/orders/${item.orderId}`}>
                    {t('order')} {item.orderId}
                  </Anchor>
                )}
              </Table.Td>
              <Table.Td>
                {!item.read && (
                  <Button size="compact-xs" variant="subtle" onClick={() => void markRead([item.id])}>
                    {t('markRead')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
