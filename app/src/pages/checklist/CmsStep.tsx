/**
 * The checklist's CMS plugin values: for each plugin the service replays (WooCommerce, Bitrix,
 * OpenCart, Diafan), where its settings take the API address, the shop's key and its id, and
 * the widget-era script URL with the shop's publishable key; each value with a copy button.
 */
import { Select, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../../api';
import { CopyValue } from '../../components/CopyValue';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';

type Value = 'apiUrl' | 'token' | 'shopId' | 'script';

/** Where each plugin takes each value (its settings' own names; the API address where its code names the host). */
const PLUGINS: Array<{ id: string; name: string; where: Record<Value, string> }> = [
  {
    id: 'woocommerce',
    name: 'WooCommerce',
    where: {
      apiUrl: 'includes/SafeRouteWooCommerceBase.php (api.saferoute.ru)',
      token: 'Токен / Token',
      shopId: 'ID магазина / Shop ID',
      script: 'SAFEROUTE_WIDGET_API_PATH',
    },
  },
  {
    id: 'bitrix',
    name: '1C-Bitrix (saferoute.widget)',
    where: {
      apiUrl: 'lib/common.php (api.saferoute.ru)',
      token: 'Токен',
      shopId: 'ID магазина',
      script: 'include.php (<script src>)',
    },
  },
  {
    id: 'opencart',
    name: 'OpenCart 2.3 / 3.0',
    where: {
      apiUrl: 'model/…/shipping/saferoute.php (api.saferoute.ru)',
      token: 'Токен',
      shopId: 'ID магазина',
      script: 'install.xml (api.js)',
    },
  },
  {
    id: 'diafan',
    name: 'DIAFAN.CMS',
    where: {
      apiUrl: 'delivery.saferoute.inc.php (api.saferoute.ru)',
      token: 'Токен',
      shopId: 'ID магазина (Shop-Id)',
      script: 'delivery.saferoute.inc.php (api.js?new)',
    },
  },
];

export function CmsStep() {
  const { t } = useText();
  const shops = useList(() => api.GET('/v2/shops', { params: { query: { perPage: 100 } } }), 'cl-cms-shops');
  const [shopId, setShopId] = useState<string | null>(null);
  const shop = (shops.data ?? []).find((one) => String(one.id) === shopId) ?? shops.data?.[0] ?? null;
  const key = useList(
    () =>
      shop
        ? api.GET('/v2/shops/{id}/widget-key', { params: { path: { id: shop.id } } })
        : Promise.resolve({ data: undefined, response: new Response(null) }),
    `cl-cms-key-${shop?.id ?? 0}`,
  );
  if (!shop) return <Text size="sm">{t('clNeedWarehouse')}</Text>;
  const origin = window.location.origin;
  const values: Record<Value, { label: string; value: string }> = {
    apiUrl: { label: t('clApiUrl'), value: `${origin}/` },
    token: { label: t('clApiToken'), value: shop.apiKey ?? '—' },
    shopId: { label: t('clShopId'), value: String(shop.id) },
    script: {
      label: t('clWidgetScript'),
      value: key.data ? `${origin}/widget/v1/saferoute-compat.js?key=${key.data.publicKey}` : t('clNoKeyYet'),
    },
  };
  return (
    <Stack data-testid="checklist-cms">
      <Text size="sm">{t('clCmsIntro')}</Text>
      <Select
        label={t('clWidgetShop')}
        value={String(shop.id)}
        allowDeselect={false}
        onChange={setShopId}
        data={(shops.data ?? []).map((one) => ({ value: String(one.id), label: one.name }))}
        maw={420}
      />
      <Tabs defaultValue="woocommerce" keepMounted={false}>
        <Tabs.List>
          {PLUGINS.map((plugin) => (
            <Tabs.Tab key={plugin.id} value={plugin.id} data-testid={`cms-${plugin.id}`}>
              {plugin.name}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {PLUGINS.map((plugin) => (
          <Tabs.Panel key={plugin.id} value={plugin.id} pt="sm">
            <Stack gap="md">
              {(Object.keys(values) as Value[]).map((name) => (
                <CopyValue
                  key={name}
                  label={values[name].label}
                  hint={`${t('clWherePaste')}: ${plugin.where[name]}`}
                  value={values[name].value}
                  testId={`cms-${plugin.id}-${name}`}
                />
              ))}
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
