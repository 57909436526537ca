/**
 * The checklist's shop: name, brand and the site's origin. Saving makes the shop (on the
 * account's first warehouse unless another is chosen) and issues its publishable widget key for
 * that origin, which the widget step then shows and lets the owner change.
 */
import { Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { type TextKey, useText } from '../../i18n';

/** The origin of an address typed (https://shop.example/, shop.example): null when it is not one. */
export function originOf(typed: string): string | null {
  const text = typed.trim();
  if (!text) return null;
  try {
    const url = new URL(/^[a-z]+:\/\//i.test(text) ? text : `https://${text}`);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) return null;
    return url.origin;
  } catch {
    return null;
  }
}

export function ShopStep({ done }: { done(): void }) {
  const { t } = useText();
  const warehouses = useList(() => api.GET('/v2/warehouses', { params: { query: { perPage: 100 } } }), 'cl-warehouses');
  const [name, setName] = useState('');
  const [brand, setBrand] = useState('');
  const [site, setSite] = useState('');
  const [warehouseId, setWarehouseId] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const action = useAction();
  const chosen = warehouseId ?? (warehouses.data?.[0] ? String(warehouses.data[0].id) : null);
  const origin = originOf(site);
  const problems: Partial<Record<'name' | 'brand' | 'site', TextKey>> = {};
  if (!name.trim()) problems.name = 'clRequired';
  if (!brand.trim()) problems.brand = 'clRequired';
  if (!origin) problems.site = 'clSiteOriginFormat';
  const shown = (field: keyof typeof problems) => (tried && problems[field] ? t(problems[field] as TextKey) : null);
  const save = async () => {
    setTried(true);
    if (Object.keys(problems).length > 0 || !chosen || !origin) return;
    const made = await action.run(async () => {
      const shop = ok(
        await api.POST('/v2/shops', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: { name: name.trim(), brand: brand.trim(), platform: 'checkout', warehouse: { id: Number(chosen) } },
        }),
      );
      ok(
        await api.POST('/v2/shops/{id}/widget-key', {
          params: { path: { id: shop.id } },
          body: { allowedOrigins: [origin] },
        }),
      );
    });
    if (made) done();
  };
  if (warehouses.data && warehouses.data.length === 0) return <Text size="sm">{t('clNeedWarehouse')}</Text>;
  return (
    <Stack data-testid="checklist-shop-form">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={t('clShopName')}
          required
          value={name}
          error={shown('name')}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <TextInput
          label={t('clBrand')}
          required
          value={brand}
          error={shown('brand')}
          onChange={(event) => setBrand(event.currentTarget.value)}
        />
        <TextInput
          label={t('clSiteOrigin')}
          required
          placeholder="https://shop.example"
          value={site}
          error={shown('site')}
          onChange={(event) => setSite(event.currentTarget.value)}
          data-testid="checklist-site-origin"
        />
        <Select
          label={t('senderWarehouse')}
          value={chosen}
          allowDeselect={false}
          onChange={setWarehouseId}
          data={(warehouses.data ?? []).map((warehouse) => ({ value: String(warehouse.id), label: warehouse.name }))}
        />
      </SimpleGrid>
      <ApiError error={warehouses.error ?? action.error} />
      <Group>
        <Button onClick={() => void save()} data-testid="checklist-save-shop">
          {t('clCreateShop')}
        </Button>
      </Group>
    </Stack>
  );
}
