/** A manager chooses the shop their requests act for; the page reloads its data under the new shop. */
import { Select } from '@mantine/core';
import { useEffect, useState } from 'react';
import { actingShop, setActingShop } from '../acting-shop';
import { useText } from '../i18n';
import { useSession } from '../session';

export function ActingShopSwitch() {
  const { t } = useText();
  const { session } = useSession();
  const shops = session?.managedShops ?? null;
  const [shopId, setShopId] = useState<number | null>(() =>
    shops
      ? setActingShop(
          null,
          shops.map((shop) => shop.id),
        )
      : null,
  );
  useEffect(() => {
    if (!shops) setActingShop(null, []);
    else
      setShopId(
        setActingShop(
          actingShop(),
          shops.map((shop) => shop.id),
        ),
      );
  }, [shops]);
  if (!shops || shops.length === 0) return null;
  return (
    <Select
      size="xs"
      w={180}
      aria-label={t('actingShop')}
      value={shopId === null ? null : String(shopId)}
      allowDeselect={false}
      data-testid="acting-shop"
      onChange={(value) => {
        if (!value) return;
        setActingShop(
          Number(value),
          shops.map((shop) => shop.id),
        );
        // every page's data was read for the other shop: start over in the new one
        globalThis.location.reload();
      }}
      data={shops.map((shop) => ({ value: String(shop.id), label: shop.name }))}
    />
  );
}
