/**
 * The public tracking page link: `{PUBLIC_URL}/track/{company code}/{track number}/{seal}`.
 *
 * A built-in company's track number is derived from the account and order ids by an open
 * algorithm, so a link naming only the track number could be enumerated. The seal is an
 * HMAC, under a key derived from the instance secret, of the company, the track number and
 * the order it was registered for: only the holder of the link (the shop and its customer)
 * can open the page, every process computes the same link, and nothing is stored.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TrackedParcel } from '../../carriers/types.js';

/** 12 bytes (96 bits) of the HMAC: out of reach of guessing, short enough for an SMS. */
const SEAL_BYTES = 12;
const SEAL_PATTERN = /^[A-Za-z0-9_-]{16}$/;

export class TrackingLinks {
  constructor(
    private readonly publicUrl: string,
    /** Derived from the instance secret for this purpose only. */
    private readonly key: string,
  ) {}

  url(parcel: TrackedParcel): string {
    return `${this.publicUrl}/track/${encodeURIComponent(parcel.companyCode)}/${encodeURIComponent(parcel.trackNumber)}/${this.seal(parcel)}`;
  }

  seal(parcel: Omit<TrackedParcel, 'companyCode'>): string {
    return createHmac('sha256', this.key)
      .update(`tracking-page:${parcel.companyId}:${parcel.trackNumber}:${parcel.accountId}:${parcel.orderId}`)
      .digest()
      .subarray(0, SEAL_BYTES)
      .toString('base64url');
  }

  /** Whether `seal` is the seal of this parcel (compared in constant time). */
  opens(parcel: Omit<TrackedParcel, 'companyCode'>, seal: string): boolean {
    if (!SEAL_PATTERN.test(seal)) return false;
    const expected = Buffer.from(this.seal(parcel));
    const given = Buffer.from(seal);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
