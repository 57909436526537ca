/**
 * A sticker set written by a job (more than STICKER_SYNC_LABELS labels): its file answers 202
 * until written, so the page polls GET /v2/orders/stickers (the day's sets, with each set's
 * status and progress) for the set answered with this file and shows a Mantine Progress, then
 * the link. Polling a list the service already has beats a job endpoint of its own.
 */
import { Alert, Anchor, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { useText } from '../../i18n';
import { fileHref } from '../../reference';
import { ApiError } from '../../components/ApiError';

const POLL_MS = 1000;

/** The set of the day answered with this file (its deliveryCompanySticker is the file answered). */
export async function stickerSetOf(file: string): Promise<Schemas['StickerSet'] | undefined> {
  const sets = ok(await api.GET('/v2/orders/stickers'));
  return sets.find((set) => set.deliveryCompanySticker === file);
}

export function StickerJob({ file, onClose }: { file: string; onClose(): void }) {
  const { t } = useText();
  const [set, setSet] = useState<Schemas['StickerSet'] | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const found = await stickerSetOf(file);
        if (!live) return;
        setSet(found);
        setError(null);
        if (found?.status === 'pending' || found === undefined) timer = setTimeout(() => void poll(), POLL_MS);
      } catch (caught) {
        if (!live) return;
        setError(caught);
        timer = setTimeout(() => void poll(), POLL_MS * 3);
      }
    };
    void poll();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
  }, [file]);

  const done = set?.progress.done ?? 0;
  const total = set?.progress.total ?? 0;
  const color = set?.status === 'failed' ? 'red' : set?.status === 'ready' ? 'teal' : 'indigo';
  return (
    <Alert color={color} withCloseButton closeButtonLabel={t('close')} onClose={onClose} data-testid="sticker-job">
      <Stack gap={6}>
        {set?.status === 'ready' ? (
          <Text size="sm" data-testid="sticker-job-ready">
            {t('stickerJobReady')}:{' '}
            <Anchor href={fileHref(file)} target="_blank" data-testid="sticker-job-file">
              {t('open')}
            </Anchor>
          </Text>
        ) : set?.status === 'failed' ? (
          <Text size="sm" role="alert">
            {t('stickerJobFailed')}
          </Text>
        ) : (
          <Text size="sm" role="status" data-testid="sticker-job-status">
            {t('stickerJob', { done, total })}
          </Text>
        )}
        <Progress
          value={total > 0 ? (100 * done) / total : 0}
          aria-label={t('stickerJob', { done, total })}
          data-testid="sticker-job-progress"
        />
        <ApiError error={error} />
      </Stack>
    </Alert>
  );
}
