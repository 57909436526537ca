/**
 * An order by hand: recipient, address with the city searched in the localities, goods and
 * sizes, live prices of every company and tariff from POST /v2/calculator (the shop's widget
 * settings applied), the pickup point chosen on the map, the courier's date and interval, COD and
 * declared value. The API's field errors land on their fields. The form is kept in
 * sessionStorage as it is typed: an ended session or a reload gives it back.
 */
import {
  Alert,
  Autocomplete,
  Button,
  Card,
  Group,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { operations } from '../../../../clients/typescript/src/index';
import { api, idempotencyKey, ok, type Order, type Schemas } from '../../api';
import { fieldErrorsOf } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { PointMap, type MapPoint } from '../../components/PointMap';
import { draftStore } from '../../drafts';
import { formatMoney, todayIn } from '../../format';
import { useText, type TextKey } from '../../i18n';
import { useReference } from '../../reference';
import { useSignedIn } from '../../session';
import {
  draftFromOrder,
  EMPTY_DRAFT,
  optionKey,
  orderBodyOf,
  calculatorBodyOf,
  lineOfProduct,
  resizePlaces,
  type GoodsLine,
  type OrderDraft,
  type PlaceSize,
} from './order-draft';

type Locality = operations['searchLocalities']['responses'][200]['content']['application/json'][number];
type Quote = Schemas['DeliveryCompany'];
type Product = Schemas['Product'];
const drafts = draftStore();

/**
 * Goods from the catalogue: a search (name and vendor code substrings, 10 each) rather than a
 * list, for catalogues of 100k products. The choice becomes an order line with the product's
 * price, weight, sizes and barcode, still editable; typed lines stay possible.
 */
function CatalogueSearch({ onPick }: { onPick(product: Product): void }) {
  const { t, locale } = useText();
  const [typed, setTyped] = useState('');
  const [debounced] = useDebouncedValue(typed, 250);
  const [found, setFound] = useState<Product[]>([]);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const q = debounced.trim();
    if (q.length < 2) return setFound([]);
    let live = true;
    Promise.all([
      api.GET('/v2/products', { params: { query: { name: q, perPage: 10 } } }).then(ok),
      api.GET('/v2/products', { params: { query: { vendorCode: q, perPage: 10 } } }).then(ok),
    ]).then(
      ([byName, byCode]) => {
        if (!live) return;
        const seen = new Set<number>();
        setFound([...byCode, ...byName].filter((product) => !seen.has(product.id) && Boolean(seen.add(product.id))));
        setError(null);
      },
      (caught: unknown) => live && setError(caught),
    );
    return () => {
      live = false;
    };
  }, [debounced]);

  return (
    <Stack gap={4} w={{ base: '100%', sm: 420 }}>
      <Select
        label={t('fromCatalogue')}
        placeholder={t('fromCataloguePlaceholder')}
        searchable
        value={null}
        searchValue={typed}
        onSearchChange={setTyped}
        filter={({ options }) => options}
        nothingFoundMessage={debounced.trim().length >= 2 ? t('nothingFound') : undefined}
        data={found.map((product) => ({
          value: String(product.id),
          label: `${product.vendorCode} — ${product.name} (${formatMoney(product.priceDeclared, locale)})`,
        }))}
        onChange={(value) => {
          const product = found.find((candidate) => String(candidate.id) === value);
          if (product) onPick(product);
          setTyped('');
        }}
        data-testid="catalogue-search"
      />
      <ApiError error={error} />
    </Stack>
  );
}

export function OrderForm() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const reference = useReference(locale);
  const navigate = useNavigate();
  const { id } = useParams();
  const editing = id !== undefined ? Number(id) : null;
  const draftKey = editing === null ? 'order-new' : `order-${editing}`;
  const [draft, setDraft] = useState<OrderDraft>(() => drafts.load<OrderDraft>(draftKey) ?? EMPTY_DRAFT);
  const [error, setError] = useState<unknown>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [cityText, setCityText] = useState(draft.city ? draft.city.name : '');
  const [cities, setCities] = useState<Locality[]>([]);
  const [debouncedCity] = useDebouncedValue(cityText, 250);
  const [quotes, setQuotes] = useState<Record<'1' | '2' | '3', Quote[]> | null>(null);
  const [quoteError, setQuoteError] = useState<unknown>(null);
  const [intervals, setIntervals] = useState<Schemas['CourierInterval'][]>([]);

  // editing: the order as it is, unless a draft of it was being typed
  useEffect(() => {
    if (editing === null || drafts.load(draftKey)) return;
    api.GET('/v2/orders/{id}', { params: { path: { id: editing } } }).then((result) => {
      try {
        const loaded = draftFromOrder(ok(result) as Order);
        setDraft(loaded);
        setCityText(loaded.city?.name ?? '');
      } catch (caught) {
        setError(caught);
      }
    }, setError);
  }, [editing, draftKey]);

  const update = useCallback(
    (patch: Partial<OrderDraft>) =>
      setDraft((current) => {
        const next = { ...current, ...patch };
        drafts.save(draftKey, next);
        return next;
      }),
    [draftKey],
  );
  useEffect(() => {
    if (!draft.shopId && reference?.shops[0]) update({ shopId: reference.shops[0].id });
  }, [reference, draft.shopId, update]);

  useEffect(() => {
    const typed = debouncedCity.trim();
    if (typed.length < 2 || typed === draft.city?.name) return;
    let live = true;
    api.GET('/v2/lists/localities', { params: { query: { q: typed, limit: 10 } } }).then(
      (result) => live && result.data && setCities(result.data),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [debouncedCity, draft.city?.name]);

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

  const chosenQuote = useMemo(() => {
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

  const setLine = (index: number, patch: Partial<GoodsLine>) =>
    update({ goods: draft.goods.map((line, at) => (at === index ? { ...line, ...patch } : line)) });
  const setPlace = (index: number, patch: Partial<PlaceSize>) =>
    update({
      placeSizes: resizePlaces(draft.placeSizes, draft.places).map((place, at) =>
        at === index ? { ...place, ...patch } : place,
      ),
    });
  // a product of the catalogue takes the place of the untouched first line, else is added
  const addProduct = (product: Product) => {
    const untouched = draft.goods.length === 1 && !draft.goods[0].name && !draft.goods[0].vendorCode;
    update({ goods: [...(untouched ? [] : draft.goods), lineOfProduct(product)] });
  };

  const submit = async () => {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      const body = orderBodyOf(draft);
      let orderId = editing;
      if (editing === null) {
        orderId = ok(
          await api.POST('/v2/orders', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body }),
        ).id;
      } else {
        ok(await api.PUT('/v2/orders/{id}', { params: { path: { id: editing } }, body }));
      }
      drafts.forget(draftKey);
      navigate(`/orders/${orderId}`);
    } catch (caught) {
      setError(caught);
      setFields(fieldErrorsOf(caught));
    } finally {
      setBusy(false);
    }
  };

  const err = (...names: string[]) => names.map((name) => fields[name]).find(Boolean);
  const number = (value: string | number) => (value === '' ? null : Number(value));

  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{editing === null ? t('newOrder') : `${t('order')} ${editing}`}</Title>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label={t('shop')}
            value={draft.shopId ? String(draft.shopId) : null}
            onChange={(value) => update({ shopId: value ? Number(value) : null })}
            data={(reference?.shops ?? []).map((shop) => ({ value: String(shop.id), label: shop.name }))}
            error={err('shopId')}
          />
          <TextInput
            label={t('cmsId')}
            value={draft.cmsId}
            onChange={(event) => update({ cmsId: event.currentTarget.value })}
            error={err('cmsId')}
          />
        </SimpleGrid>
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('recipient')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput
            label={t('recipientName')}
            required
            value={draft.fullName}
            onChange={(event) => update({ fullName: event.currentTarget.value })}
            error={err('recipient.fullName')}
            data-testid="recipient-name"
          />
          <TextInput
            label={t('phone')}
            required
            type="tel"
            value={draft.phone}
            onChange={(event) => update({ phone: event.currentTarget.value })}
            error={err('recipient.phone')}
            data-testid="recipient-phone"
          />
          <TextInput
            label={t('email')}
            type="email"
            value={draft.email}
            onChange={(event) => update({ email: event.currentTarget.value })}
            error={err('recipient.email')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 4 }} mt="xs">
          <Autocomplete
            label={t('citySearch')}
            required
            value={cityText}
            onChange={(value) => {
              setCityText(value);
              const found = cities.find((city) => cityLabel(city) === value);
              if (found) {
                setCityText(found.name);
                update({
                  city: {
                    name: found.name,
                    fias: found.fias,
                    type: found.type,
                    region: found.region,
                    countryCode: found.countryCode,
                  },
                  option: null,
                  pointId: null,
                });
              }
            }}
            data={[...new Set(cities.map(cityLabel))]}
            filter={({ options }) => options}
            error={err('deliveryAddress.city', 'deliveryAddress.city.name', 'deliveryAddress')}
            data-testid="city"
          />
          <TextInput
            label={t('street')}
            value={draft.street}
            onChange={(event) => update({ street: event.currentTarget.value })}
            error={err('deliveryAddress.street')}
          />
          <TextInput
            label={t('house')}
            value={draft.house}
            onChange={(event) => update({ house: event.currentTarget.value })}
            error={err('deliveryAddress.house')}
          />
          <TextInput
            label={t('flat')}
            value={draft.flat}
            onChange={(event) => update({ flat: event.currentTarget.value })}
            error={err('deliveryAddress.flat')}
          />
        </SimpleGrid>
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('goods')}
        </Title>
        <Stack gap="xs">
          {draft.goods.map((line, index) => (
            <SimpleGrid key={index} cols={{ base: 2, sm: 5, lg: 10 }} spacing="xs">
              <TextInput
                label={t('goodsName')}
                value={line.name}
                onChange={(event) => setLine(index, { name: event.currentTarget.value })}
                error={err(`products[${index}].name`, `products.${index}.name`)}
              />
              <TextInput
                label={t('vendorCode')}
                value={line.vendorCode}
                onChange={(event) => setLine(index, { vendorCode: event.currentTarget.value })}
              />
              <NumberInput
                label={t('count')}
                min={1}
                value={line.count}
                onChange={(value) => setLine(index, { count: Number(value) || 1 })}
              />
              <NumberInput
                label={t('priceDeclared')}
                min={0}
                value={line.priceDeclared ?? ''}
                onChange={(value) => setLine(index, { priceDeclared: number(value) })}
              />
              <NumberInput
                label={t('priceCod')}
                min={0}
                value={line.priceCod ?? ''}
                onChange={(value) => setLine(index, { priceCod: number(value) })}
              />
              <NumberInput
                label={t('weight')}
                min={0.001}
                step={0.1}
                decimalScale={3}
                value={line.weight ?? ''}
                onChange={(value) => setLine(index, { weight: number(value) })}
                error={err(`products[${index}].weight`, `products.${index}.weight`)}
              />
              <NumberInput
                label={t('width')}
                min={1}
                max={999}
                value={line.width ?? ''}
                onChange={(value) => setLine(index, { width: number(value) })}
              />
              <NumberInput
                label={t('height')}
                min={1}
                max={999}
                value={line.height ?? ''}
                onChange={(value) => setLine(index, { height: number(value) })}
              />
              <NumberInput
                label={t('length')}
                min={1}
                max={999}
                value={line.length ?? ''}
                onChange={(value) => setLine(index, { length: number(value) })}
              />
              <Button
                variant="subtle"
                color="red"
                mt={24}
                disabled={draft.goods.length === 1}
                onClick={() => update({ goods: draft.goods.filter((_, at) => at !== index) })}
              >
                {t('remove')}
              </Button>
            </SimpleGrid>
          ))}
          <Group>
            <Button
              variant="default"
              size="xs"
              onClick={() => update({ goods: [...draft.goods, { ...EMPTY_DRAFT.goods[0] }] })}
            >
              {t('addGoods')}
            </Button>
            <CatalogueSearch onPick={addProduct} />
          </Group>
        </Stack>
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="xs">
          {t('placesTitle')}
        </Title>
        <NumberInput
          label={t('placeCount')}
          min={1}
          max={99}
          w={160}
          value={draft.places}
          onChange={(value) => {
            const places = Math.min(99, Math.max(1, Number(value) || 1));
            update({ places, placeSizes: resizePlaces(draft.placeSizes, places) });
          }}
          data-testid="place-count"
        />
        <Stack gap={4} mt="xs" data-testid="places">
          {resizePlaces(draft.placeSizes, draft.places).map((place, index) => (
            <SimpleGrid key={index} cols={{ base: 2, sm: 5 }} spacing="xs" data-place={index + 1}>
              <Text size="sm" mt={30}>
                {t('place')} {index + 1}
              </Text>
              {(['length', 'width', 'height'] as const).map((side) => (
                <NumberInput
                  key={side}
                  label={`${t('place')} ${index + 1}: ${t(side)}`}
                  min={1}
                  max={999}
                  value={place[side] ?? ''}
                  onChange={(value) => setPlace(index, { [side]: number(value) })}
                  error={err(`places[${index}].dimensions.${side}`, `places[${index}].dimensions`)}
                />
              ))}
              <NumberInput
                label={`${t('place')} ${index + 1}: ${t('weight')}`}
                min={0.001}
                step={0.1}
                decimalScale={3}
                value={place.weight ?? ''}
                onChange={(value) => setPlace(index, { weight: number(value) })}
                error={err(`places[${index}].weight`)}
              />
            </SimpleGrid>
          ))}
        </Stack>
      </Card>
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
              <Table.Tbody>
                {(['1', '2', '3'] as const).flatMap((type) =>
                  quotes[type].map((quote) => {
                    const key = optionKey(Number(type) as 1 | 2 | 3, quote);
                    return (
                      <Table.Tr key={key} data-option={key}>
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
                        <Table.Td fw={600}>{priceOf(quote, locale)}</Table.Td>
                      </Table.Tr>
                    );
                  }),
                )}
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
            <DateInput
              valueFormat="YYYY-MM-DD"
              label={t('courierDate')}
              minDate={todayIn(session.timeZone)}
              value={draft.courierDate}
              onChange={(value) =>
                update({ courierDate: value ? String(value).slice(0, 10) : null, courierTime: null })
              }
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
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label={t('priceDeclared')}
            min={0}
            value={draft.priceDeclared ?? ''}
            onChange={(value) => update({ priceDeclared: number(value) })}
            error={err('priceDeclared')}
          />
          <Textarea
            label={t('comment')}
            value={draft.comment}
            onChange={(event) => update({ comment: event.currentTarget.value })}
            autosize
            minRows={1}
          />
        </SimpleGrid>
      </Card>
      {Object.keys(fields).length > 0 && <Alert color="red">{t('fieldErrors')}</Alert>}
      <ApiError error={error} />
      <Group>
        <Button onClick={() => void submit()} loading={busy} data-testid="save-order">
          {editing === null ? t('save') : t('saveChanges')}
        </Button>
      </Group>
    </Stack>
  );
}

/** A courier's or post's price; for pickup points the price is per point: the cheapest, "from". */
function priceOf(quote: Quote, locale: 'ru' | 'en'): string {
  if (quote.totalPrice !== undefined) return formatMoney(quote.totalPrice, locale);
  const prices = (quote.points ?? []).flatMap((point) => (typeof point === 'number' ? [] : [point.totalPrice]));
  if (prices.length === 0) return formatMoney(quote.priceDelivery, locale);
  return `${locale === 'ru' ? 'от' : 'from'} ${formatMoney(Math.min(...prices), locale)}`;
}

function cityLabel(city: Locality): string {
  return `${city.name}, ${city.region}`;
}
