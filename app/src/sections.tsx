/**
 * The dashboard's sections in the navigation's order: each one's path, name and page, the
 * owner-only ones left out for a manager; and the routes, with the pages reached from a section
 * (an order, its edit, a return).
 */
import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';
import type { TextKey } from './i18n';
import { DocumentsPage } from './pages/documents/Documents';
import { NotificationsPage } from './pages/notifications/Notifications';
import { OrderPage } from './pages/orders/OrderPage';
import { OrdersPage } from './pages/orders/Orders';
import type { SessionView } from './session';

// the order form (Leaflet, the date pickers) and pickups load when first opened: the orders list does not wait for them
const OrderForm = lazy(() => import('./pages/orders/OrderForm').then((module) => ({ default: module.OrderForm })));
const PickupsPage = lazy(() => import('./pages/pickups/Pickups').then((module) => ({ default: module.PickupsPage })));
// so do the catalogue, stock, money and settings pages: the first paint carries none of them
const ProductsPage = lazy(() =>
  import('./pages/catalogue/Products').then((module) => ({ default: module.ProductsPage })),
);
const KitsPage = lazy(() => import('./pages/catalogue/Kits').then((module) => ({ default: module.KitsPage })));
const BoxesPage = lazy(() => import('./pages/catalogue/Boxes').then((module) => ({ default: module.BoxesPage })));
const ReservationsPage = lazy(() =>
  import('./pages/fulfilment/Reservations').then((module) => ({ default: module.ReservationsPage })),
);
const StockPage = lazy(() => import('./pages/fulfilment/Stock').then((module) => ({ default: module.StockPage })));
const SuppliesPage = lazy(() =>
  import('./pages/fulfilment/Supplies').then((module) => ({ default: module.SuppliesPage })),
);
const MarketplacesPage = lazy(() =>
  import('./pages/marketplaces/Marketplaces').then((module) => ({ default: module.MarketplacesPage })),
);
const BillsPage = lazy(() => import('./pages/money/Bills').then((module) => ({ default: module.BillsPage })));
const ApiKeysPage = lazy(() => import('./pages/settings/ApiKeys').then((module) => ({ default: module.ApiKeysPage })));
const AuditTrailPage = lazy(() =>
  import('./pages/settings/AuditTrail').then((module) => ({ default: module.AuditTrailPage })),
);
const EmployeesPage = lazy(() =>
  import('./pages/settings/Employees').then((module) => ({ default: module.EmployeesPage })),
);
const IntegrationsPage = lazy(() =>
  import('./pages/settings/Integrations').then((module) => ({ default: module.IntegrationsPage })),
);
const ShopsSettingsPage = lazy(() =>
  import('./pages/settings/Shops').then((module) => ({ default: module.ShopsSettingsPage })),
);
const CodPage = lazy(() => import('./pages/money/Cod').then((module) => ({ default: module.CodPage })));
const DeliveryTimesPage = lazy(() =>
  import('./pages/money/DeliveryTimes').then((module) => ({ default: module.DeliveryTimesPage })),
);
const WarehousesPage = lazy(() =>
  import('./pages/settings/Warehouses').then((module) => ({ default: module.WarehousesPage })),
);
const SecurityPage = lazy(() => import('./pages/auth/Security').then((module) => ({ default: module.SecurityPage })));
const ChecklistPage = lazy(() =>
  import('./pages/checklist/Checklist').then((module) => ({ default: module.ChecklistPage })),
);
const ShippingRulesPage = lazy(() =>
  import('./pages/settings/ShippingRules').then((module) => ({ default: module.ShippingRulesPage })),
);
const BuyerMessagesPage = lazy(() =>
  import('./pages/settings/BuyerMessages').then((module) => ({ default: module.BuyerMessagesPage })),
);
// returns: their list, a return's page and a shop's return rules
const ReturnsPage = lazy(() => import('./pages/returns/Returns').then((module) => ({ default: module.ReturnsPage })));
const ReturnPage = lazy(() => import('./pages/returns/ReturnPage').then((module) => ({ default: module.ReturnPage })));
const ReturnSettingsPage = lazy(() =>
  import('./pages/settings/ReturnSettings').then((module) => ({ default: module.ReturnSettingsPage })),
);
const DeliveryMethodsPage = lazy(() =>
  import('./pages/settings/DeliveryMethods').then((module) => ({ default: module.DeliveryMethodsPage })),
);

/** Outside the signed-in layout: staff open it with their operator token. */
export const WAREHOUSE_STAFF_PATH = '/warehouse';

export interface Section {
  path: string;
  label: TextKey;
  element: ReactElement;
  /** Only the account's owners (the API refuses managers there anyway). */
  ownersOnly?: boolean;
}

const SECTIONS: Section[] = [
  { path: '/checklist', label: 'checklist', element: <ChecklistPage />, ownersOnly: true },
  { path: '/orders', label: 'orders', element: <OrdersPage key="orders" /> },
  { path: '/orders/new', label: 'newOrder', element: <OrderForm /> },
  { path: '/problems', label: 'problems', element: <OrdersPage key="problems" problems /> },
  { path: '/returns', label: 'rtReturns', element: <ReturnsPage /> },
  { path: '/documents', label: 'documents', element: <DocumentsPage /> },
  { path: '/pickups', label: 'pickups', element: <PickupsPage /> },
  { path: '/notifications', label: 'notifications', element: <NotificationsPage /> },
  { path: '/products', label: 'catalogue', element: <ProductsPage /> },
  { path: '/kits', label: 'kits', element: <KitsPage /> },
  { path: '/boxes', label: 'boxes', element: <BoxesPage /> },
  { path: '/stock', label: 'stock', element: <StockPage /> },
  { path: '/reservations', label: 'reservations', element: <ReservationsPage /> },
  { path: '/supplies', label: 'supplies', element: <SuppliesPage /> },
  { path: '/marketplaces', label: 'marketplaces', element: <MarketplacesPage />, ownersOnly: true },
  { path: '/money', label: 'bills', element: <BillsPage /> },
  { path: '/money/cod', label: 'cod', element: <CodPage /> },
  // account-wide figures (the report refuses a shop's scope): owners only
  { path: '/money/delivery-times', label: 'deliveryTimes', element: <DeliveryTimesPage />, ownersOnly: true },
  { path: '/settings/shops', label: 'shopSettings', element: <ShopsSettingsPage />, ownersOnly: true },
  { path: '/settings/shipping-rules', label: 'shippingRules', element: <ShippingRulesPage />, ownersOnly: true },
  { path: '/settings/buyer-messages', label: 'buyerMessages', element: <BuyerMessagesPage />, ownersOnly: true },
  { path: '/settings/return-settings', label: 'rtSettings', element: <ReturnSettingsPage />, ownersOnly: true },
  { path: '/settings/warehouses', label: 'warehouses', element: <WarehousesPage />, ownersOnly: true },
  { path: '/settings/delivery-methods', label: 'deliveryMethods', element: <DeliveryMethodsPage />, ownersOnly: true },
  { path: '/settings/integrations', label: 'integrations', element: <IntegrationsPage />, ownersOnly: true },
  { path: '/settings/employees', label: 'employees', element: <EmployeesPage />, ownersOnly: true },
  { path: '/settings/api-keys', label: 'apiKeys', element: <ApiKeysPage />, ownersOnly: true },
  { path: '/settings/audit', label: 'auditTrail', element: <AuditTrailPage />, ownersOnly: true },
  { path: '/security', label: 'security', element: <SecurityPage /> },
];

/** The sections the navigation lists for this session: a manager sees no owner-only one. */
export function sectionsFor(session: SessionView): Section[] {
  return SECTIONS.filter((section) => session.role !== 'manager' || !section.ownersOnly);
}

/** The routes of this session's sections, and of the pages opened from them. */
export function routesFor(session: SessionView): ReactElement[] {
  return [
    ...sectionsFor(session).map((section) => (
      <Route key={section.path} path={section.path} element={section.element} />
    )),
    <Route key="/orders/:id" path="/orders/:id" element={<OrderPage />} />,
    <Route key="/orders/:id/edit" path="/orders/:id/edit" element={<OrderForm />} />,
    <Route key="/returns/:id" path="/returns/:id" element={<ReturnPage />} />,
  ];
}
