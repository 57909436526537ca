/**
 * The dashboard's preview keys (pv_…): the real widget shown inside the dashboard prices and
 * previews a shop's checkout with one. What one may do, and why it is safe:
 * - minted by an owner (POST /v2/shops/{id}/widget-preview-key), one per shop, two hours, the
 *   same key handed out again while it has half an hour left; the shop's publishable key and
 *   its origins are never touched, so the live checkout is not affected;
 * - it answers only a page of the service's own origin: the Origin's host is the host the call
 *   was sent to (the dashboard is served there), or, for a same-origin GET (which browsers send
 *   without an Origin), `Sec-Fetch-Site: same-origin`, a header no page can set; never a call
 *   that says neither (a server, curl);
 * - its selections are marked as the preview's, and the confirm refuses them (422
 *   preview_selection): it never makes an order; it is no bearer token (401 on every /v2 call).
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../platform/errors.js';
import type { AccountService } from '../accounts/service.js';
import type { WidgetPreviewKey } from './schemas.js';
import type { WidgetCaller } from './service.js';
import type { WidgetStore } from './store.js';

/** A preview key lives this long; one with less than PREVIEW_REUSE_MS left is replaced rather than handed out. */
export const PREVIEW_KEY_TTL_MS = 2 * 60 * 60 * 1000;
const PREVIEW_REUSE_MS = 30 * 60 * 1000;

export class PreviewKeys {
  constructor(
    private readonly store: WidgetStore,
    private readonly accounts: AccountService,
  ) {}

  /** The shop's key while it has half an hour left, else a new one for two hours. */
  async keyOf(accountId: number, shopId: number): Promise<WidgetPreviewKey> {
    const now = Date.now();
    const kept = await this.store.previewKeyOfShop(accountId, shopId, new Date(now + PREVIEW_REUSE_MS).toISOString());
    if (kept) return kept;
    const previewKey = `pv_${randomBytes(24).toString('base64url')}`;
    const expiresAt = new Date(now + PREVIEW_KEY_TTL_MS).toISOString();
    await this.store.putPreviewKey(accountId, shopId, previewKey, expiresAt);
    return { previewKey, expiresAt };
  }

  /** Who a preview key acts for, from a page of the service's own origin only. */
  async caller(
    previewKey: string,
    page: { origin: string | undefined; ownHost: string | undefined; fetchSite: string | undefined },
  ): Promise<WidgetCaller> {
    const found = await this.store.previewKeyRecord(previewKey, new Date().toISOString());
    if (!found)
      throw new AppError(
        401,
        'invalid_widget_key',
        "The preview key is unknown or has expired: open the dashboard's checklist again.",
      );
    const ours = page.origin ? sameHost(page.origin, page.ownHost) : page.fetchSite === 'same-origin';
    if (!ours)
      throw new AppError(
        403,
        'origin_not_allowed',
        "A preview key works only in the service's own dashboard; a shop's pages use its publishable key (pk_…).",
      );
    const timeZone = await this.accounts.timeZoneOf(found.accountId);
    return {
      key: {
        accountId: found.accountId,
        shopId: found.shopId,
        publicKey: previewKey,
        allowedOrigins: [],
        createdAt: '',
      },
      scope: { accountId: found.accountId, timeZone, kind: 'shop', shopKeyShopId: found.shopId, employeeId: null },
      preview: true,
    };
  }
}

/** Whether a page's Origin is the host the call was sent to (default ports alike), i.e. a page this service served. */
function sameHost(origin: string | undefined, ownHost: string | undefined): boolean {
  if (!origin || !ownHost) return false;
  try {
    const page = new URL(origin);
    return new URL(`${page.protocol}//${ownHost}`).host.toLowerCase() === page.host.toLowerCase();
  } catch {
    return false;
  }
}
