/**
 * A settings page of one shop at a time (shipping rules, buyer messages): its title and hint, the
 * shop chosen in `?shop=` (the first one by default), and the shop's own editor, made afresh for
 * each shop so nothing typed for one is saved for another.
 */
import { Select, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { type TextKey, useText } from '../../i18n';
import { useReference } from '../../reference';

export function ShopSettingsPage(props: {
  title: TextKey;
  hint: TextKey;
  /** The shop select's test id. */
  selectTestId: string;
  editor(shopId: number): ReactNode;
}) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const [params, setParams] = useSearchParams();
  const shops = reference?.shops ?? [];
  const chosen = params.get('shop') ?? (shops[0] ? String(shops[0].id) : null);
  return (
    <Stack>
      <Title order={2}>{t(props.title)}</Title>
      <Text size="sm" c="gray.7">
        {t(props.hint)}
      </Text>
      <Select
        label={t('shop')}
        value={chosen}
        onChange={(shop) => shop && setParams({ shop })}
        data={shops.map((shop) => ({ value: String(shop.id), label: shop.name }))}
        allowDeselect={false}
        w={320}
        maw="100%"
        data-testid={props.selectTestId}
      />
      {chosen && <Stack key={chosen}>{props.editor(Number(chosen))}</Stack>}
    </Stack>
  );
}
