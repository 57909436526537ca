/**
 * A shop manager's requests act for one of their shops (the API's rule): the chosen
 * shop goes in the Shop-Id header of every call that does not name one itself. The choice is
 * kept for the tab (sessionStorage), so a reload stays in the same shop.
 */
import type { Middleware } from 'openapi-fetch';
import { api } from './api';

const STORED = 'dashboard.actingShop';
let actingShopId: number | null = null;

export function actingShop(): number | null {
  return actingShopId;
}

/** Sets (or clears, with null) the shop a manager acts for; answers the shop in force. */
export function setActingShop(shopId: number | null, allowed: number[]): number | null {
  const stored = Number(globalThis.sessionStorage?.getItem(STORED) ?? NaN);
  actingShopId = shopId ?? (allowed.includes(stored) ? stored : (allowed[0] ?? null));
  if (actingShopId === null || !allowed.includes(actingShopId)) actingShopId = allowed[0] ?? null;
  if (actingShopId !== null) globalThis.sessionStorage?.setItem(STORED, String(actingShopId));
  return actingShopId;
}

const shopHeader: Middleware = {
  onRequest({ request }) {
    if (actingShopId !== null && !request.headers.has('shop-id')) request.headers.set('shop-id', String(actingShopId));
    return request;
  },
};
api.use(shopHeader);
