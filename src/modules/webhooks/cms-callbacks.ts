/**
 * The callbacks the old shop plugins wait for, in their own wire format (widget-era.md 3.5):
 * the shop's "CMS API path" with the resource name appended, form-encoded POSTs for updates
 * and GETs for the two lists, header `token` = the shop's token (Diafan also checks
 * `Shop-Id` and `Api-Key`). Pure: what to send and how to read the answer.
 */

export const CMS_PLATFORMS = ['woocommerce', 'bitrix', 'opencart', 'diafan'] as const;
export type CmsPlatform = (typeof CMS_PLATFORMS)[number];

export type CmsResource = 'order-status-update' | 'product-quantity-update';

/** What is needed to address a shop's plugin. */
export interface CmsTarget {
  platform: CmsPlatform;
  /** The plugin's API base as its documentation gives it, e.g. https://shop.ru/wp-json/saferoute-api/ */
  baseUrl: string;
  shopId: number;
  /** The shop's token, the one the plugin is configured with. */
  token: string;
  /** Diafan's "API-ключ для интеграции". */
  apiKey: string | null;
}

/** The plugins append the resource name to the base the shop typed (OpenCart's base ends in `route=.../api/`). */
export function cmsUrl(baseUrl: string, resource: string): string {
  return `${baseUrl}${resource}`;
}

export function cmsHeaders(target: CmsTarget): Record<string, string> {
  const headers: Record<string, string> = { token: target.token, accept: 'application/json' };
  if (target.platform === 'diafan') {
    headers['Shop-Id'] = String(target.shopId);
    headers['Api-Key'] = target.apiKey ?? '';
  }
  return headers;
}

/** The form fields of order-status-update (statusSR is our code; statusCMS the shop's, from its mapping). */
export function orderStatusFields(update: {
  orderId: number;
  statusCms: string;
  statusSr: number;
  trackNumber: string | null;
  trackUrl: string | null;
}): Record<string, string> {
  return {
    id: String(update.orderId),
    statusCMS: update.statusCms,
    statusSR: String(update.statusSr),
    trackNumber: update.trackNumber ?? '',
    trackUrl: update.trackUrl ?? '',
  };
}

export function productQuantityFields(vendorCode: string, quantity: number): Record<string, string> {
  return { vendorCode, quantity: String(quantity) };
}

/** Only WooCommerce 3.x has product-quantity-update. */
export function acceptsQuantity(platform: CmsPlatform): boolean {
  return platform === 'woocommerce';
}

/**
 * Bitrix and OpenCart refuse an update without statusCMS (400); WooCommerce 3.x maps statusSR
 * itself, so it is told every change even when the shop left the status unmapped.
 */
export function sendsUnmappedStatus(platform: CmsPlatform): boolean {
  return platform === 'woocommerce';
}

export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/**
 * Whether the plugin took the update: a 2xx, except Diafan's way of refusing
 * (200 with {"status":"error"}).
 */
export function cmsAccepted(status: number, body: string): boolean {
  if (status < 200 || status >= 300) return false;
  try {
    const answer = JSON.parse(body) as { status?: unknown };
    return !(answer && typeof answer === 'object' && answer.status === 'error');
  } catch {
    return true;
  }
}

/** statuses.json / payment-methods.json: an object {id: name}; anything else is not a plugin's answer. */
export function readCmsList(body: string): Record<string, string> | null {
  try {
    const answer = JSON.parse(body) as unknown;
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return null;
    return Object.fromEntries(
      Object.entries(answer as Record<string, unknown>).map(([key, value]) => [key, String(value)]),
    );
  } catch {
    return null;
  }
}
