/**
 * The fixes at hand on a problem order's row: re-price, change point (the order form's map in a
 * dialog), cancel. Each goes through the existing API (order-fixes.ts; POST /v2/orders/cancel)
 * and shows its own refusal in the row, not above the table.
 */
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { api, ok } from '../../api';
import { formatMoney } from '../../format';
import { useText } from '../../i18n';
import type { OrderDraft } from './order-draft';
import { changeOrderPoint, NoQuoteError, pointChoiceFor, repriceOrder, type Quote } from './order-fixes';
import { ApiError } from '../../components/ApiError';
import type { MapPoint } from '../../components/PointMap';

// Leaflet loads with the dialog, not with the orders list (the first load stays without it)
const PointMap = lazy(() => import('../../components/PointMap').then((module) => ({ default: module.PointMap })));

function pointsOf(quote: Quote | null, locale: 'ru' | 'en'): MapPoint[] {
  return (quote?.points ?? []).flatMap((point) =>
    typeof point === 'number'
      ? []
      : [
          {
            id: point.id,
            latitude: Number(point.latitude),
            longitude: Number(point.longitude),
            label: `${point.name}: ${point.address} — ${formatMoney(point.totalPrice, locale)}`,
          },
        ],
  );
}

export function ProblemFixes({ orderId, pickup, fixed }: { orderId: number; pickup: boolean; fixed(): void }) {
  const { t, locale } = useText();
  const [busy, setBusy] = useState<null | 'reprice' | 'cancel' | 'point'>(null);
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [choice, setChoice] = useState<{ draft: OrderDraft; points: MapPoint[] } | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);

  const run = async (which: 'reprice' | 'cancel' | 'point', action: () => Promise<string | null>) => {
    setBusy(which);
    setError(null);
    setMessage(null);
    try {
      setMessage(await action());
      fixed();
    } catch (caught) {
      setError(caught instanceof NoQuoteError ? new Error(t('noQuote')) : caught);
    } finally {
      setBusy(null);
    }
  };

  const openPoints = async () => {
    setBusy('point');
    setError(null);
    try {
      const { draft, quote } = await pointChoiceFor(orderId);
      setChoice({ draft, points: pointsOf(quote, locale) });
      setChosen(draft.pointId);
    } catch (caught) {
      setError(caught instanceof NoQuoteError ? new Error(t('noQuote')) : caught);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap={4} data-testid={`fixes-${orderId}`}>
      <Group gap={4} wrap="nowrap">
        <Button
          size="compact-xs"
          variant="light"
          loading={busy === 'reprice'}
          onClick={() =>
            void run('reprice', async () => {
              const order = await repriceOrder(orderId);
              return t('repriced', { price: formatMoney(order.delivery?.totalPrice, locale) });
            })
          }
          data-testid={`reprice-${orderId}`}
        >
          {t('reprice')}
        </Button>
        {pickup && (
          <Button
            size="compact-xs"
            variant="light"
            loading={busy === 'point' && choice === null}
            onClick={() => void openPoints()}
            data-testid={`change-point-${orderId}`}
          >
            {t('changePoint')}
          </Button>
        )}
        <Button
          size="compact-xs"
          variant="light"
          color="red.9"
          loading={busy === 'cancel'}
          onClick={() =>
            void run('cancel', async () => {
              ok(await api.POST('/v2/orders/cancel', { body: { ids: [orderId] } }));
              return t('fixDone');
            })
          }
          data-testid={`cancel-${orderId}`}
        >
          {t('cancelOrder')}
        </Button>
      </Group>
      {message && (
        <Text size="xs" role="status" data-testid={`fix-done-${orderId}`}>
          {message}
        </Text>
      )}
      <ApiError error={error} />
      <Modal
        opened={choice !== null}
        onClose={() => setChoice(null)}
        title={t('changePoint')}
        size="xl"
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        {choice && (
          <Stack gap="sm">
            {choice.points.length === 0 ? (
              <Text c="gray.7">{t('noQuote')}</Text>
            ) : (
              <Suspense fallback={null}>
                <PointMap points={choice.points} chosen={chosen} onChoose={setChosen} />
              </Suspense>
            )}
            <Group justify="end">
              <Button variant="default" onClick={() => setChoice(null)}>
                {t('close')}
              </Button>
              <Button
                disabled={chosen === null || chosen === choice.draft.pointId}
                loading={busy === 'point'}
                data-testid="save-point"
                onClick={() => {
                  const { draft } = choice;
                  setChoice(null);
                  if (chosen !== null)
                    void run('point', async () => (await changeOrderPoint(orderId, draft, chosen), t('fixDone')));
                }}
              >
                {t('savePoint')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
