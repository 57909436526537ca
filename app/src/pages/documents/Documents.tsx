/**
 * Documents: today's sticker sets and the waybills with their acts (stickers of selected orders
 * are printed from the orders list). Each sticker file is named by its format (the service's
 * types: 1 A4 sheets of four, 2 thermal 100×150 mm, 3 thermal 75×120 mm), and the set's own file
 * by what it holds.
 */
import { Anchor, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { formatDay, formatInstant } from '../../format';
import { type TextKey, useText } from '../../i18n';
import { fileHref } from '../../reference';
import { useSignedIn } from '../../session';
import { setFileKey, type StickerSet, stickerTypeKey } from './sticker-files';

export function DocumentsPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const [stickers, setStickers] = useState<StickerSet[]>([]);
  const [waybills, setWaybills] = useState<Schemas['WaybillSet'][] | null>(null);
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
        {stickers.map((set) => (
          <Group key={set.id} gap="xs" data-testid={`sticker-set-${set.id}`}>
            <Text size="sm">
              {formatInstant(set.date, locale, session.timeZone)} ·{' '}
              {t('stickerSetOrders', { count: set.orderIds.length })}
            </Text>
            {set.stickers.map((sticker) => (
              <Anchor key={sticker.file} href={fileHref(sticker.file)} target="_blank" size="sm">
                {t(stickerTypeKey(sticker.type))}
              </Anchor>
            ))}
            {set.status === 'pending' && (
              <Progress
                w={160}
                value={set.progress.total > 0 ? (100 * set.progress.done) / set.progress.total : 0}
                aria-label={t('stickerJob', { done: set.progress.done, total: set.progress.total })}
              />
            )}
            {set.status === 'failed' && (
              <Text size="sm" c="red.9">
                {t('stickerJobFailed')}
              </Text>
            )}
            {set.status === 'ready' && set.deliveryCompanySticker && setFileKey(set) && (
              <Anchor href={fileHref(set.deliveryCompanySticker)} target="_blank" size="sm">
                {t(setFileKey(set) as TextKey)}
              </Anchor>
            )}
          </Group>
        ))}
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('waybills')}
        </Title>
        <DataTable
          testId="waybills-table"
          ariaLabel={t('waybills')}
          rows={waybills}
          rowKey={(set) => set.id}
          labels={{ empty: '—' }}
          striped={false}
          columns={[
            { key: 'date', header: t('handoverDate'), cell: (set) => formatDay(set.date, locale) },
            { key: 'company', header: t('company'), cell: (set) => set.company },
            { key: 'warehouse', header: t('warehouse'), cell: (set) => set.warehouse.name },
            { key: 'orders', header: t('orders'), cell: (set) => set.countOrders },
            {
              key: 'files',
              header: '',
              cell: (set) => (
                <Group gap="xs" wrap="nowrap">
                  {set.file && (
                    <Anchor href={fileHref(set.file)} target="_blank" size="sm">
                      {t('act')}
                    </Anchor>
                  )}
                  {set.crossDockFile && (
                    <Anchor href={fileHref(set.crossDockFile)} target="_blank" size="sm">
                      {t('waybill')}
                    </Anchor>
                  )}
                </Group>
              ),
            },
          ]}
        />
      </Card>
    </Stack>
  );
}
