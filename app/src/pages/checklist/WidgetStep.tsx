/**
 * The checklist's widget: the shop's allowed origins (its publishable key issued, or its origins
 * changed with the key kept), the code to paste with the versioned file and its SRI hash from the
 * widget build's manifest, and a live preview of the real widget under a preview key.
 */
import { Button, Group, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { api, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { CopyValue } from '../../components/CopyValue';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';
import { originOf } from './ShopStep';
import { widgetSnippet } from './snippet';
import { WidgetPreview } from './WidgetPreview';

export function WidgetStep({ done }: { done(): void }) {
  const { t, locale } = useText();
  const shops = useList(() => api.GET('/v2/shops', { params: { query: { perPage: 100 } } }), 'cl-widget-shops');
  const manifest = useList(() => api.GET('/widget/v1/manifest.json'), 'cl-manifest');
  const [shopId, setShopId] = useState<string | null>(null);
  const chosen = shopId ?? (shops.data?.[0] ? String(shops.data[0].id) : null);
  if (!chosen) return <Text size="sm">{t('clNeedWarehouse')}</Text>;
  return (
    <Stack data-testid="checklist-widget">
      <Select
        label={t('clWidgetShop')}
        value={chosen}
        allowDeselect={false}
        onChange={setShopId}
        data={(shops.data ?? []).map((shop) => ({ value: String(shop.id), label: shop.name }))}
        maw={420}
      />
      <ShopWidget
        key={chosen}
        shopId={Number(chosen)}
        file={manifest.data?.widget.file ?? null}
        integrity={manifest.data?.widget.integrity ?? null}
        locale={locale}
        done={done}
      />
      <ApiError error={shops.error ?? manifest.error} />
    </Stack>
  );
}

function ShopWidget(props: {
  shopId: number;
  file: string | null;
  integrity: string | null;
  locale: 'ru' | 'en';
  done(): void;
}) {
  const { t } = useText();
  const key = useList(
    () => api.GET('/v2/shops/{id}/widget-key', { params: { path: { id: props.shopId } } }),
    `cl-key-${props.shopId}`,
  );
  const [typed, setTyped] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const action = useAction();
  const current = key.data?.allowedOrigins.join('\n') ?? '';
  const text = typed ?? current;
  const origins = text.split(/[\s,]+/).filter(Boolean);
  const bad = origins.filter((origin) => originOf(origin) === null);
  const save = async () => {
    setSaved(false);
    if (origins.length === 0 || bad.length > 0) return;
    const body = { allowedOrigins: origins.map((origin) => originOf(origin) as string) };
    const made = await action.run(async () =>
      key.data
        ? ok(await api.PUT('/v2/shops/{id}/widget-key', { params: { path: { id: props.shopId } }, body }))
        : ok(await api.POST('/v2/shops/{id}/widget-key', { params: { path: { id: props.shopId } }, body })),
    );
    if (made) {
      setSaved(true);
      setTyped(null);
      key.reload();
      props.done();
    }
  };
  const snippet =
    key.data && props.file && props.integrity
      ? widgetSnippet({
          serviceOrigin: window.location.origin,
          file: props.file,
          integrity: props.integrity,
          publicKey: key.data.publicKey,
          locale: props.locale,
        })
      : null;
  return (
    <Stack>
      <Textarea
        label={t('clAllowedOrigins')}
        autosize
        minRows={2}
        value={text}
        placeholder="https://shop.example"
        error={bad.length > 0 ? `${t('clSiteOriginFormat')}: ${bad.join(', ')}` : undefined}
        onChange={(event) => setTyped(event.currentTarget.value)}
        data-testid="checklist-origins"
        maw={520}
      />
      <Group>
        <Button onClick={() => void save()} data-testid="checklist-save-origins">
          {t('clSaveOrigins')}
        </Button>
        {saved && <Text size="sm">{t('clOriginsSaved')}</Text>}
      </Group>
      <ApiError error={action.error} />
      <Title order={4} size="h5">
        {t('clSnippet')}
      </Title>
      {snippet ? (
        <>
          <Text size="sm">{t('clSnippetHint')}</Text>
          <CopyValue label={t('clSnippet')} value={snippet} block testId="widget-snippet" />
        </>
      ) : (
        <Text size="sm">{t('clNoKeyYet')}</Text>
      )}
      <Title order={4} size="h5">
        {t('clPreview')}
      </Title>
      <Text size="sm">{t('clPreviewHint')}</Text>
      {props.file && props.integrity && (
        <WidgetPreview shopId={props.shopId} file={props.file} integrity={props.integrity} locale={props.locale} />
      )}
    </Stack>
  );
}
