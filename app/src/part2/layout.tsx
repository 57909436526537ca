/** Part 2's places in the layout: its sections and routes (owner-only ones left out for managers), and a manager's shop switch. */
import { Select } from '@mantine/core';
import { lazy, useEffect, useState, type ReactElement } from 'react';
import { Route } from 'react-router';
import { actingShop, setActingShop } from '../acting-shop';
import { useText, type TextKey } from '../i18n';

// each page loads on first use (as part 1's order form and pickups): the first paint carries none of them
const ProductsPage = lazy(() =>
  import('../pages/catalogue/Products').then((module) => ({ default: module.ProductsPage })),
);
const KitsPage = lazy(() => import('../pages/catalogue/Kits').then((module) => ({ default: module.KitsPage })));
const BoxesPage = lazy(() => import('../pages/catalogue/Boxes').then((module) => ({ default: module.BoxesPage })));
const ReservationsPage = lazy(() =>
  import('../pages/fulfilment/Reservations').then((module) => ({ default: module.ReservationsPage })),
);
const StockPage = lazy(() => import('../pages/fulfilment/Stock').then((module) => ({ default: module.StockPage })));
const SuppliesPage = lazy(() =>
  import('../pages/fulfilment/Supplies').then((module) => ({ default: module.SuppliesPage })),
);
const MarketplacesPage = lazy(() =>
  import('../pages/marketplaces/Marketplaces').then((module) => ({ default: module.MarketplacesPage })),
);
const BillsPage = lazy(() => import('../pages/money/Bills').then((module) => ({ default: module.BillsPage })));
const EmployeesPage = lazy(() =>
  import('../pages/settings/Employees').then((module) => ({ default: module.EmployeesPage })),
);
const IntegrationsPage = lazy(() =>
  import('../pages/settings/Integrations').then((module) => ({ default: module.IntegrationsPage })),
);
const ShopsSettingsPage = lazy(() =>
  import('../pages/settings/Shops').then((module) => ({ default: module.ShopsSettingsPage })),
);
const CodPage = lazy(() => import('../pages/money/Cod').then((module) => ({ default: module.CodPage })));
const WarehousesPage = lazy(() =>
  import('../pages/settings/Warehouses').then((module) => ({ default: module.WarehousesPage })),
);
const DeliveryMethodsPage = lazy(() =>
  import('../pages/settings/DeliveryMethods').then((module) => ({ default: module.DeliveryMethodsPage })),
);
import { useSession, type SessionView } from '../session';

/** Outside the signed-in layout: staff open it with their operator token. */
export const WAREHOUSE_STAFF_PATH = '/warehouse';

interface Section {
  path: string;
  label: TextKey;
  element: ReactElement;
  /** Only the account's owners (the API refuses managers there anyway). */
  ownersOnly?: boolean;
}

const SECTIONS: Section[] = [
  { path: '/products', label: 'catalogue', element: <ProductsPage /> },
  { path: '/kits', label: 'kits', element: <KitsPage /> },
  { path: '/boxes', label: 'boxes', element: <BoxesPage /> },
  { path: '/stock', label: 'stock', element: <StockPage /> },
  { path: '/reservations', label: 'reservations', element: <ReservationsPage /> },
  { path: '/supplies', label: 'supplies', element: <SuppliesPage /> },
  { path: '/marketplaces', label: 'marketplaces', element: <MarketplacesPage />, ownersOnly: true },
  { path: '/money', label: 'bills', element: <BillsPage /> },
  { path: '/money/cod', label: 'cod', element: <CodPage /> },
  { path: '/settings/shops', label: 'shopSettings', element: <ShopsSettingsPage />, ownersOnly: true },
  { path: '/settings/warehouses', label: 'warehouses', element: <WarehousesPage />, ownersOnly: true },
  { path: '/settings/delivery-methods', label: 'deliveryMethods', element: <DeliveryMethodsPage />, ownersOnly: true },
  { path: '/settings/integrations', label: 'integrations', element: <IntegrationsPage />, ownersOnly: true },
  { path: '/settings/employees', label: 'employees', element: <EmployeesPage />, ownersOnly: true },
];

export const PART2_SECTIONS: Array<{ path: string; label: TextKey }> = SECTIONS.map(({ path, label }) => ({
  path,
  label,
}));

const isManager = (session: SessionView) => session.role === 'manager';

/** Whether the layout lists a section for this session. */
export function visibleTo(session: SessionView): (section: { path: string }) => boolean {
  return (section) => !isManager(session) || !SECTIONS.find((own) => own.path === section.path)?.ownersOnly;
}

export function part2Routes(session: SessionView): ReactElement[] {
  return SECTIONS.filter(visibleTo(session)).map((section) => (
    <Route key={section.path} path={section.path} element={section.element} />
  ));
}

/** A manager chooses the shop their requests act for; the page reloads its data under the new shop. */
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
