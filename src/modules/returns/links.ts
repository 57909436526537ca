/**
 * The returns page's signed links. A shop's page, `{PUBLIC_URL}/site/returns/{shop token}`
 * (the lookup by order number and phone), and one delivered order's page,
 * `{PUBLIC_URL}/site/returns/{shop token}/{order token}` (the tracking page and the "delivered"
 * message link to it). HMAC under a key derived from the instance secret for this purpose only,
 * like the tracking page's seal: every process makes the same link, nothing is stored, shop and
 * order ids (sequential) cannot be walked, and an order's token opens it only under its shop. Pure.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** 96 bits of the MAC: out of reach of guessing, short enough for an SMS. */
const MAC_BYTES = 12;
const SHOP_TOKEN = /^(\d{1,15})-(\d{1,15})-([A-Za-z0-9_-]{16})$/;
const ORDER_TOKEN = /^(\d{1,15})-([A-Za-z0-9_-]{16})$/;

export interface ShopPage {
  accountId: number;
  shopId: number;
}

export interface OrderPage extends ShopPage {
  orderId: number;
}

export class ReturnLinks {
  constructor(
    private readonly publicUrl: string,
    /** Derived from the instance secret for this purpose only. */
    private readonly key: string,
  ) {}

  private mac(text: string): string {
    return createHmac('sha256', this.key).update(text).digest().subarray(0, MAC_BYTES).toString('base64url');
  }

  shopToken(page: ShopPage): string {
    return `${page.shopId}-${page.accountId}-${this.mac(`returns-shop:${page.accountId}:${page.shopId}`)}`;
  }

  orderToken(page: OrderPage): string {
    return `${page.orderId}-${this.mac(`returns-order:${page.accountId}:${page.shopId}:${page.orderId}`)}`;
  }

  shopUrl(page: ShopPage): string {
    return `${this.publicUrl}/site/returns/${this.shopToken(page)}`;
  }

  orderUrl(page: OrderPage): string {
    return `${this.shopUrl(page)}/${this.orderToken(page)}`;
  }

  /** The shop a token names, or null (malformed or altered). */
  readShop(token: string): ShopPage | null {
    const match = SHOP_TOKEN.exec(token);
    if (!match) return null;
    const page = { shopId: Number(match[1]), accountId: Number(match[2]) };
    return same(match[3], this.mac(`returns-shop:${page.accountId}:${page.shopId}`)) ? page : null;
  }

  /** The order a token opens under that shop, or null (malformed, altered, another shop's). */
  readOrder(shop: ShopPage, token: string): OrderPage | null {
    const match = ORDER_TOKEN.exec(token);
    if (!match) return null;
    const page = { ...shop, orderId: Number(match[1]) };
    return same(match[2], this.mac(`returns-order:${page.accountId}:${page.shopId}:${page.orderId}`)) ? page : null;
  }
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
