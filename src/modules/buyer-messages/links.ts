/**
 * The buyer's signed links: a one-click unsubscribe (account, shop, channel, address) and the
 * Telegram start payload of an order (account, shop, order). HMAC with a key derived from the
 * instance secret, cut to what a link and Telegram's 64-character payload hold. Pure.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Bytes of the MAC kept: 96 bits, against guessing one link in a shop's lifetime. */
const MAC_BYTES = 12;

function mac(key: string, text: string): string {
  return createHmac('sha256', key).update(text).digest().subarray(0, MAC_BYTES).toString('base64url');
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface UnsubscribeTarget {
  accountId: number;
  shopId: number;
  channel: string;
  address: string;
}

/** `<data>.<mac>`, data base64url of "account|shop|channel|address". */
export function unsubscribeToken(key: string, target: UnsubscribeTarget): string {
  const data = Buffer.from(`${target.accountId}|${target.shopId}|${target.channel}|${target.address}`).toString(
    'base64url',
  );
  return `${data}.${mac(key, `unsubscribe:${data}`)}`;
}

export function readUnsubscribeToken(key: string, token: string): UnsubscribeTarget | null {
  const [data, signature, extra] = token.split('.');
  if (!data || !signature || extra !== undefined || data.length > 700) return null;
  if (!same(signature, mac(key, `unsubscribe:${data}`))) return null;
  const [account, shop, channel, ...address] = Buffer.from(data, 'base64url').toString('utf8').split('|');
  const accountId = Number(account);
  const shopId = Number(shop);
  if (!Number.isSafeInteger(accountId) || !Number.isSafeInteger(shopId) || !channel || address.length === 0)
    return null;
  return { accountId, shopId, channel, address: address.join('|') };
}

/** Telegram's start payload (A-Z, a-z, 0-9, _ and -, at most 64): "o<order>_<account>_<mac>". */
export function telegramPayload(key: string, accountId: number, orderId: number): string {
  return `o${orderId}_${accountId}_${mac(key, `telegram:${accountId}:${orderId}`)}`;
}

export function readTelegramPayload(key: string, payload: string): { accountId: number; orderId: number } | null {
  const match = /^o(\d{1,15})_(\d{1,15})_([A-Za-z0-9_-]{16})$/.exec(payload);
  if (!match) return null;
  const orderId = Number(match[1]);
  const accountId = Number(match[2]);
  return same(match[3], mac(key, `telegram:${accountId}:${orderId}`)) ? { accountId, orderId } : null;
}
