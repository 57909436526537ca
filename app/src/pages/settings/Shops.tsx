/**
 * Settings of the shops: each shop's API key shown once when re-issued (the old one stops at
 * once), and the checkout widget's settings (price rules, free delivery, rounding) with a live
 * preview of the prices a buyer would see under them (POST /v2/calculator with the shop's
 * widget settings applied, from the shop's warehouse to Санкт-Петербург).
 */
import {
  Alert,
  Button,
  Card,
  Code,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatMoney } from '../../format';
import { useText } from '../../i18n';
import { useReference } from '../../reference';

type Settings = Schemas['WidgetSettings'];
type Rule = NonNullable<Settings['priceRules']>[number];
const TYPES = ['1', '2', '3'] as const;

function ApiKey({ shopId }: { shopId: number }) {
  const { t } = useText();
  const [key, setKey] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reissue = async () => {
    setError(null);
    try {
      setKey(ok(await api.POST('/v2/shops/{id}/api-key', { params: { path: { id: shopId } } })).apiKey);
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Stack gap="xs">
      <Group>
        <Button variant="default" size="xs" onClick={() => void reissue()} data-testid="reissue-key">
          {t('reissueKey')}
        </Button>
      </Group>
      {key && (
        <Alert color="indigo" title={t('keyShownOnce')} data-testid="new-key">
          <Code>{key}</Code>
        </Alert>
      )}
      <ApiError error={error} />
    </Stack>
  );
}

/** The cheapest price of each delivery type under the shop's widget settings. */
function PricePreview({ shopId, generation }: { shopId: number; generation: number }) {
  const { t, locale } = useText();
  const [prices, setPrices] = useState<Partial<Record<(typeof TYPES)[number], number>>>({});
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
            const cheapest = Object.fromEntries(
              TYPES.map((type) => {
                // a pickup point company's prices may be per point: only quotes with a price count
                const priced = (quotes[type] ?? [])
                  .map((quote) => Number(quote.totalPrice ?? quote.priceDelivery))
                  .filter(Number.isFinite);
                return [type, Math.min(...priced)];
              }).filter(([, price]) => Number.isFinite(price)),
            );
            setPrices(cheapest);
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
        {TYPES.map((type) => (
          <Stack key={type} gap={0}>
            <Text size="sm">{t(`type${type}`)}</Text>
            <Text fw={700} data-testid={`preview-price-${type}`}>
              {prices[type] === undefined ? '—' : formatMoney(prices[type], locale)}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Card>
  );
}

function WidgetSettingsCard({ shopId }: { shopId: number }) {
  const { t } = useText();
  const [settings, setSettings] = useState<Settings | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    api.GET('/v2/shops/{id}/widget-settings', { params: { path: { id: shopId } } }).then(
      (result) => {
        try {
          setSettings(ok(result));
        } catch (caught) {
          setError(caught);
        }
      },
      () => undefined,
    );
  }, [shopId]);
  const rules = settings?.priceRules ?? [];
  const setRule = (index: number, rule: Partial<Rule>) =>
    settings &&
    setSettings({ ...settings, priceRules: rules.map((other, at) => (at === index ? { ...other, ...rule } : other)) });
  const save = async () => {
    if (!settings) return;
    setError(null);
    try {
      ok(await api.PUT('/v2/shops/{id}/widget-settings', { params: { path: { id: shopId } }, body: settings }));
      setGeneration((value) => value + 1);
    } catch (caught) {
      setError(caught);
    }
  };
  if (!settings) return <ApiError error={error} />;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Card withBorder>
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
              onChange={(value) => setRule(index, { percent: value === '' ? null : Number(value) })}
            />
            <NumberInput
              label={`${t('amount')} ${index + 1}`}
              value={rule.amount ?? ''}
              min={0}
              onChange={(value) => setRule(index, { amount: value === '' ? null : Number(value) })}
              data-testid={`rule-amount-${index}`}
            />
            <Button
              variant="subtle"
              color="red"
              onClick={() => setSettings({ ...settings, priceRules: rules.filter((_, at) => at !== index) })}
            >
              {t('remove')}
            </Button>
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            onClick={() =>
              setSettings({
                ...settings,
                priceRules: [...rules, { kind: 'markup', percent: null, amount: null, type: null, companyId: null }],
              })
            }
            data-testid="add-rule"
          >
            {t('addRule')}
          </Button>
        </Group>
        <NumberInput
          mt="sm"
          label={t('freeDeliveryFrom')}
          value={settings.freeDeliveryFrom ?? ''}
          min={0}
          onChange={(value) => setSettings({ ...settings, freeDeliveryFrom: value === '' ? null : Number(value) })}
        />
        <Group mt="sm">
          <Button onClick={() => void save()} data-testid="save-widget-settings">
            {t('applyChanges')}
          </Button>
        </Group>
        <ApiError error={error} />
      </Card>
      <PricePreview shopId={shopId} generation={generation} />
    </SimpleGrid>
  );
}

export function ShopsSettingsPage() {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const [shopId, setShopId] = useState<string | null>(null);
  const shops = reference?.shops ?? [];
  const chosen = shopId ?? (shops[0] ? String(shops[0].id) : null);
  return (
    <Stack>
      <Title order={2}>{t('shopSettings')}</Title>
      <Select
        label={t('shop')}
        value={chosen}
        onChange={setShopId}
        data={shops.map((shop) => ({ value: String(shop.id), label: shop.name }))}
        w={320}
        data-testid="settings-shop"
      />
      {chosen && (
        <Stack key={chosen}>
          <Table>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th>API</Table.Th>
                <Table.Td>
                  <ApiKey shopId={Number(chosen)} />
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <WidgetSettingsCard shopId={Number(chosen)} />
        </Stack>
      )}
    </Stack>
  );
}
