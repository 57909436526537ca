/** Documents: today's sticker sets and the waybills with their acts (stickers of selected orders are printed from the orders list). */
import { Anchor, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../api';
import { ApiError } from '../components/ApiError';
import { formatDay, formatInstant } from '../format';
import { useText } from '../i18n';
import { fileHref } from '../reference';
import { useSignedIn } from '../session';

export function DocumentsPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const [stickers, setStickers] = useState<Schemas['StickerSet'][]>([]);
  const [waybills, setWaybills] = useState<Schemas['WaybillSet'][]>([]);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    Promise.all([
      api.GET('/v2/orders/stickers').then(ok),
      api.GET('/v2/orders/waybills', { params: { query: { perPage: 50 } } }).then(ok),
    ]).then(([sets, acts]) => {
      setStickers(sets);
      setWaybills(acts);
    }, setError);
  }, []);

  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{t('documents')}</Title>
      <ApiError error={error} />
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('stickersToday')}
        </Title>
        {stickers.length === 0 && <Text c="gray.7">—</Text>}
        {stickers.map((set, index) => (
          <Group key={index} gap="xs">
            <Text size="sm">{formatInstant(set.date, locale, session.timeZone)}</Text>
            {set.stickers.map((sticker) => (
              <Anchor key={sticker.file} href={fileHref(sticker.file)} target="_blank" size="sm">
                {t('sticker')} {sticker.type}
              </Anchor>
            ))}
            {set.deliveryCompanySticker && (
              <Anchor href={fileHref(set.deliveryCompanySticker)} target="_blank" size="sm">
                {t('company')}
              </Anchor>
            )}
          </Group>
        ))}
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('waybills')}
        </Title>
        <Table>
          <Table.Tbody>
            {waybills.map((set) => (
              <Table.Tr key={set.id}>
                <Table.Td>{formatDay(set.date, locale)}</Table.Td>
                <Table.Td>{set.company}</Table.Td>
                <Table.Td>
                  {set.countOrders} {t('orders').toLowerCase()}
                </Table.Td>
                <Table.Td>
                  {set.file && (
                    <Anchor href={fileHref(set.file)} target="_blank" size="sm">
                      {t('open')}
                    </Anchor>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </Stack>
  );
}
