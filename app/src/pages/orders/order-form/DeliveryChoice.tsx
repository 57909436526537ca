/**
 * The order form's delivery: live prices of every company and tariff from POST /v2/calculator
 * (the shop's widget settings applied), asked again as the city, goods or amounts change, in
 * one list cheapest first; the pickup point chosen on the map; the courier's date and interval.
 */
import { Card, Radio, Select, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { api, ok, type Schemas } from '../../../api';
import { ApiError } from '../../../components/ApiError';
import { DateField } from '../../../components/DateField';
import { PointMap, type MapPoint } from '../../../components/PointMap';
import { formatMoney, todayIn } from '../../../format';
import { quotePrice, quotePriceText, quotesByPrice, type Quote, type QuotesByType } from '../../../quote-price';
import { useText, type TextKey } from '../../../i18n';
import { useSignedIn } from '../../../session';
import { calculatorBodyOf, optionKey } from '../order-draft';
import type { FormPartProps } from './form-part';

export function DeliveryChoice({ draft, update, err }: FormPartProps) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const [quotes, setQuotes] = useState<QuotesByType | null>(null);
  const [quoteError, setQuoteError] = useState<unknown>(null);
  const [intervals, setIntervals] = useState<Schemas['CourierInterval'][]>([]);

  // live prices: every change of the city, goods or amounts asks again (debounced)
  const calculatorBody = useMemo(() => calculatorBodyOf(draft), [draft]);
  const [debouncedBody] = useDebouncedValue(calculatorBody, 400);
  useEffect(() => {
    if (!debouncedBody || !draft.shopId) return;
    let live = true;
    setQuoteError(null);
    api.POST('/v2/calculator', { params: { header: { 'Shop-Id': draft.shopId } }, body: debouncedBody }).then(
      (result) => {
        if (!live) return;
        try {
          setQuotes(ok(result));
        } catch (caught) {
          setQuotes(null);
          setQuoteError(caught);
        }
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [debouncedBody, draft.shopId]);

  const priceList = useMemo(() => (quotes ? quotesByPrice(quotes) : []), [quotes]);
  const chosenQuote = useMemo<Quote | null>(() => {
    if (!quotes || !draft.option) return null;
    return (
      quotes[String(draft.option.type) as '1' | '2' | '3']?.find(
        (quote) => optionKey(draft.option?.type ?? 1, quote) === draft.option?.key,
      ) ?? null
    );
  }, [quotes, draft.option]);

  const mapPoints = useMemo<MapPoint[]>(() => {
    if (!chosenQuote || draft.option?.type !== 1) return [];
    return (chosenQuote.points ?? []).flatMap((point) =>
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
  }, [chosenQuote, draft.option?.type, locale]);
  const choosePoint = useCallback((pointId: number) => update({ pointId }), [update]);

  // the courier's intervals of the chosen company and day
  useEffect(() => {
    const city = draft.city;
    if (
      draft.option?.type !== 2 ||
      !city ||
      !draft.shopId ||
      !draft.courierDate ||
      typeof draft.option.companyId !== 'number'
    )
      return setIntervals([]);
    let live = true;
    api
      .GET('/v2/couriers/schedule', {
        params: {
          query: {
            cityFias: city.fias,
            cityType: city.type,
            cityName: city.name,
            cityRegion: city.region,
            shopId: draft.shopId,
            companyId: draft.option.companyId,
            date: draft.courierDate,
          },
        },
      })
      .then(
        (result) => live && setIntervals(result.data ?? []),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [draft.option, draft.city, draft.shopId, draft.courierDate]);

  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('pricesLive')}
      </Title>
      <ApiError error={quoteError} />
      {quotes && (['1', '2', '3'] as const).every((type) => quotes[type].length === 0) && (
        <Text c="gray.7">{t('noOptions')}</Text>
      )}
      {quotes && (
        <Radio.Group value={draft.option?.key ?? ''} aria-label={t('delivery')}>
          <Table data-testid="quotes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <VisuallyHidden>{t('choose')}</VisuallyHidden>
                </Table.Th>
                <Table.Th>{t('deliveryType')}</Table.Th>
                <Table.Th>{t('company')}</Table.Th>
                <Table.Th>{t('days')}</Table.Th>
                <Table.Th>{t('price')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {priceList.map(({ type, quote }) => {
                const key = optionKey(Number(type) as 1 | 2 | 3, quote);
                return (
                  <Table.Tr
                    key={key}
                    data-option={key}
                    data-price={quotePrice(quote).amount ?? ''}
                    data-days={quote.deliveryDays.min}
                  >
                    <Table.Td>
                      <Radio
                        value={key}
                        aria-label={`${quote.deliveryCompanyName} ${quote.tariffName ?? ''} ${t(`type${type}` as TextKey)}`}
                        onChange={() =>
                          update({
                            option: {
                              key,
                              type: Number(type) as 1 | 2 | 3,
                              companyId: quote.deliveryCompanyId,
                              tariff: quote.tariffName ?? null,
                            },
                            pointId: null,
                            courierTime: null,
                          })
                        }
                      />
                    </Table.Td>
                    <Table.Td>{t(`type${type}` as TextKey)}</Table.Td>
                    <Table.Td>
                      {quote.deliveryCompanyName}
                      {quote.tariffName ? ` · ${quote.tariffName}` : ''}
                    </Table.Td>
                    <Table.Td>
                      {quote.deliveryDays.min}–{quote.deliveryDays.max} {t('days_')}
                    </Table.Td>
                    <Table.Td fw={600} data-testid="quote-price">
                      {quotePriceText(quotePrice(quote), locale, t)}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Radio.Group>
      )}
      {draft.option?.type === 1 && (
        <Stack gap={4} mt="sm">
          <Text size="sm" fw={600}>
            {t('pointOnMap')}
          </Text>
          <PointMap points={mapPoints} chosen={draft.pointId} onChoose={choosePoint} />
          <Text size="sm" data-testid="chosen-point">
            {t('pointChosen')}: {mapPoints.find((point) => point.id === draft.pointId)?.label ?? '—'}
          </Text>
          {err('delivery.point', 'delivery.point.id') && (
            <Text c="red" size="sm">
              {err('delivery.point', 'delivery.point.id')}
            </Text>
          )}
        </Stack>
      )}
      {draft.option?.type === 2 && (
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm">
          <DateField
            label={t('courierDate')}
            minDate={todayIn(session.timeZone)}
            value={draft.courierDate}
            onChange={(value) => update({ courierDate: value ? String(value).slice(0, 10) : null, courierTime: null })}
            error={err('clientDeliveryDate')}
            clearable
            clearButtonProps={{ 'aria-label': t('clear') }}
            data-testid="courier-date"
          />
          <Select
            label={t('courierTime')}
            value={draft.courierTime ? String(draft.courierTime) : null}
            onChange={(value) => update({ courierTime: value ? Number(value) : null })}
            data={intervals.map((interval) => ({
              value: String(interval.id),
              label: `${interval.timeFrom}–${interval.timeTo}`,
            }))}
            error={err('clientCourierTime')}
            data-testid="courier-time"
          />
        </SimpleGrid>
      )}
    </Card>
  );
}
