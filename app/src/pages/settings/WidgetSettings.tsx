/**
 * The checkout widget's settings of a shop (GET and PUT /v2/shops/{id}/widget-settings, the
 * calculator's WidgetSettings) with a live preview of the prices a buyer would see under them
 * (POST /v2/calculator with the shop's widget settings applied, from the shop's warehouse to
 * Санкт-Петербург).
 */
import { Button, Card, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';
import { cheapestOf, type DeliveryTypeKey, type Quote, quotePrice, quotePriceText } from '../../quote-price';
import { useReference } from '../../reference';

type Settings = Schemas['WidgetSettings'];
type Rule = NonNullable<Settings['priceRules']>[number];
const TYPES = ['1', '2', '3'] as const;

/**
 * The cheapest price of each delivery type under the shop's widget settings. A pickup point
 * company's price is each point's own: its type shows "from" the cheapest point's price (or that
 * the price depends on the point when the answer carries none).
 */
function PricePreview({ shopId, generation }: { shopId: number; generation: number }) {
  const { t, locale } = useText();
  const [cheapest, setCheapest] = useState<Partial<Record<DeliveryTypeKey, Quote>>>({});
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    api
      .POST('/v2/calculator', {
        params: { header: { 'Shop-Id': shopId } },
        body: {
          reception: { countryCode: 'RU', cityName: 'Санкт-Петербург' },
          products: [
            {
              count: 1,
              priceDeclared: 1000,
              priceCod: 0,
              weight: 1,
              dimensions: { width: 20, height: 10, length: 30 },
            },
          ],
          priceDeclared: 1000,
          applyWidgetSettings: true,
        },
      })
      .then(
        (result) => {
          if (!live) return;
          try {
            const quotes = ok(result);
            setCheapest(
              Object.fromEntries(
                TYPES.flatMap((type) => {
                  const quote = cheapestOf(quotes[type] ?? []);
                  return quote ? [[type, quote]] : [];
                }),
              ),
            );
            setError(null);
          } catch (caught) {
            setError(caught);
          }
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [shopId, generation]);
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('preview')}
      </Title>
      <Text size="sm" mb="xs">
        {t('previewCart')}
      </Text>
      <ApiError error={error} />
      <SimpleGrid cols={3}>
        {TYPES.map((type) => {
          const quote = cheapest[type];
          return (
            <Stack key={type} gap={0}>
              <Text size="sm">{t(`type${type}`)}</Text>
              <Text fw={700} data-testid={`preview-price-${type}`}>
                {quote ? quotePriceText(quotePrice(quote), locale, t) : '—'}
              </Text>
            </Stack>
          );
        })}
      </SimpleGrid>
    </Card>
  );
}

type Rounding = NonNullable<Settings['rounding']>;
const ROUNDING_MODES: ReadonlyArray<Rounding['mode']> = ['up', 'down', 'nearest'];
const ROUNDING_NONE = 'none';
/** The default sizes as typed: the contract takes all three or none. */
type SizesText = Record<'width' | 'height' | 'length', number | ''>;
const SIDES = ['width', 'height', 'length'] as const;

/** A number field's value as the contract's number, or null when empty. */
const numberOrNull = (value: string | number) => (value === '' ? null : Number(value));

/**
 * The checkout widget's settings (GET and PUT /v2/shops/{id}/widget-settings): its price rules
 * and free delivery; the rounding of the price the buyer sees; the weight and sizes the calculator
 * takes for goods sent without them; the companies the buyer is not offered; the services offered
 * by default. One form, one save; the preview asks again after it.
 */
export function WidgetSettingsCard({ shopId }: { shopId: number }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const services = useList(
    () => api.GET('/v2/lists/services', { params: { query: { shopId } } }),
    `widget-services-${shopId}`,
  );
  const [settings, setSettings] = useState<Settings | null>(null);
  const [sizes, setSizes] = useState<SizesText>({ width: '', height: '', length: '' });
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    api.GET('/v2/shops/{id}/widget-settings', { params: { path: { id: shopId } } }).then(
      (result) => {
        try {
          const loaded = ok(result);
          setSettings(loaded);
          const sides = loaded.defaultDimensions;
          setSizes({ width: sides?.width ?? '', height: sides?.height ?? '', length: sides?.length ?? '' });
        } catch (caught) {
          setError(caught);
        }
      },
      () => undefined,
    );
  }, [shopId]);
  const change = (patch: Partial<Settings>) => {
    if (!settings) return;
    setSaved(false);
    setSettings({ ...settings, ...patch });
  };
  const rules = settings?.priceRules ?? [];
  const setRule = (index: number, rule: Partial<Rule>) =>
    change({ priceRules: rules.map((other, at) => (at === index ? { ...other, ...rule } : other)) });
  const givenSides = SIDES.filter((side) => sizes[side] !== '').length;
  const sizesIncomplete = givenSides > 0 && givenSides < SIDES.length;
  const rounding = settings?.rounding ?? null;
  const roundingStepMissing = rounding !== null && !(rounding.step > 0);
  const save = async () => {
    if (!settings || sizesIncomplete || roundingStepMissing) return;
    setError(null);
    const defaultDimensions =
      givenSides === SIDES.length
        ? { width: Number(sizes.width), height: Number(sizes.height), length: Number(sizes.length) }
        : null;
    try {
      ok(
        await api.PUT('/v2/shops/{id}/widget-settings', {
          params: { path: { id: shopId } },
          body: { ...settings, defaultDimensions },
        }),
      );
      setSaved(true);
      setGeneration((value) => value + 1);
    } catch (caught) {
      setError(caught);
    }
  };
  if (!settings) return <ApiError error={error} />;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder data-testid="widget-settings">
        <Title order={3} size="h5" mb="xs">
          {t('priceRules')}
        </Title>
        {rules.map((rule, index) => (
          <Group key={index} grow align="end" mb="xs">
            <Select
              label={`${t('ruleKind')} ${index + 1}`}
              value={rule.kind}
              onChange={(value) => setRule(index, { kind: (value as Rule['kind']) ?? 'markup' })}
              data={[
                { value: 'markup', label: t('markup') },
                { value: 'discount', label: t('discount') },
                { value: 'fixed', label: t('fixedPrice') },
              ]}
            />
            <NumberInput
              label={`${t('percent')} ${index + 1}`}
              value={rule.percent ?? ''}
              min={0}
              onChange={(value) => setRule(index, { percent: numberOrNull(value) })}
            />
            <NumberInput
              label={`${t('amount')} ${index + 1}`}
              value={rule.amount ?? ''}
              min={0}
              onChange={(value) => setRule(index, { amount: numberOrNull(value) })}
              data-testid={`rule-amount-${index}`}
            />
            <Button
              variant="subtle"
              color="red"
              onClick={() => change({ priceRules: rules.filter((_, at) => at !== index) })}
            >
              {t('remove')}
            </Button>
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            onClick={() =>
              change({
                priceRules: [...rules, { kind: 'markup', percent: null, amount: null, type: null, companyId: null }],
              })
            }
            data-testid="add-rule"
          >
            {t('addRule')}
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm">
          <NumberInput
            label={t('freeDeliveryFrom')}
            value={settings.freeDeliveryFrom ?? ''}
            min={0}
            onChange={(value) => change({ freeDeliveryFrom: numberOrNull(value) })}
          />
        </SimpleGrid>

        <Title order={3} size="h5" mt="md" mb="xs">
          {t('rounding')}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('roundingMode')}
            value={rounding?.mode ?? ROUNDING_NONE}
            onChange={(value) =>
              change({
                rounding:
                  value && value !== ROUNDING_NONE
                    ? { mode: value as Rounding['mode'], step: rounding?.step ?? 10 }
                    : null,
              })
            }
            data={[
              { value: ROUNDING_NONE, label: t('roundingNone') },
              ...ROUNDING_MODES.map((mode) => ({ value: mode, label: t(`rounding_${mode}`) })),
            ]}
            allowDeselect={false}
            data-testid="rounding-mode"
          />
          <NumberInput
            label={t('roundingStep')}
            disabled={rounding === null}
            value={rounding?.step ?? ''}
            min={0.01}
            max={10000}
            onChange={(value) => rounding && change({ rounding: { ...rounding, step: Number(value) || 0 } })}
            error={roundingStepMissing ? t('roundingStepMissing') : undefined}
            data-testid="rounding-step"
          />
        </SimpleGrid>

        <Title order={3} size="h5" mt="md" mb={4}>
          {t('defaultParcel')}
        </Title>
        <Text size="sm" c="gray.7" mb="xs">
          {t('defaultParcelHint')}
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <NumberInput
            label={t('weight')}
            value={settings.defaultWeight ?? ''}
            min={0.001}
            step={0.1}
            decimalScale={3}
            onChange={(value) => change({ defaultWeight: numberOrNull(value) })}
            data-testid="default-weight"
          />
          {SIDES.map((side) => (
            <NumberInput
              key={side}
              label={t(side)}
              value={sizes[side]}
              min={1}
              max={999}
              allowDecimal={false}
              onChange={(value) => {
                setSaved(false);
                setSizes({ ...sizes, [side]: typeof value === 'number' ? value : '' });
              }}
              error={sizesIncomplete && sizes[side] === '' ? t('sizesAllOrNone') : undefined}
              data-testid={`default-${side}`}
            />
          ))}
        </SimpleGrid>

        <Title order={3} size="h5" mt="md" mb="xs">
          {t('offeredToBuyer')}
        </Title>
        <Stack gap="xs">
          <MultiSelect
            label={t('hiddenCompanies')}
            description={t('hiddenCompaniesHint')}
            value={(settings.hiddenCompanyIds ?? []).map(String)}
            onChange={(ids) => change({ hiddenCompanyIds: ids.map(Number) })}
            data={(reference?.companies ?? []).map((company) => ({ value: String(company.id), label: company.name }))}
            searchable
            clearable
            data-testid="hidden-companies"
          />
          <MultiSelect
            label={t('defaultServices')}
            description={t('defaultServicesHint')}
            value={(settings.defaultServices ?? []).map(String)}
            onChange={(ids) => change({ defaultServices: ids.map(Number) })}
            data={(services.data?.delivery ?? []).map((service) => ({
              value: String(service.id),
              label: service.name,
            }))}
            searchable
            clearable
            data-testid="default-services"
          />
          <ApiError error={services.error} />
        </Stack>

        <Group mt="md">
          <Button
            onClick={() => void save()}
            disabled={sizesIncomplete || roundingStepMissing}
            data-testid="save-widget-settings"
          >
            {t('applyChanges')}
          </Button>
          {saved && (
            <Text size="sm" c="teal.9" role="status" data-testid="widget-settings-saved">
              {t('saved')}
            </Text>
          )}
        </Group>
        <ApiError error={error} />
      </Card>
      <PricePreview shopId={shopId} generation={generation} />
    </SimpleGrid>
  );
}
