/**
 * A buyer's phone as the SMS gateways want it: E.164 digits without '+' (SMS.RU's and SMSC's
 * examples send 79255070602). Shops type Russian numbers every way there is, so those are read
 * leniently; a foreign number must come in international form ('+', or the 00 / 8 10 dialling
 * prefixes), since without it its country cannot be told from a Russian one.
 */

/** Spaces (also non-breaking), dashes, dots and brackets people put between the digits. */
const PHONE_SHAPE = /^\+?[\d\s\-‐‑–—().]+$/;
/** E.164: a country code and the national number, at most 15 digits; 8 is the shortest in use. */
const E164_DIGITS = /^[1-9]\d{7,14}$/;
/** A Russian national number: ten digits, geographic codes 3xx/4xx/8xx, mobile 9xx. */
const RUSSIAN_NATIONAL = /^[3489]\d{9}$/;
/** Behind +7 (or the trunk 8) Kazakhstan's 6xx/7xx too: the two countries share the code. */
const ZONE_7_NATIONAL = /^[3-9]\d{9}$/;

/**
 * '79161234567' for +7 916 123-45-67, 8 (916) 1234567, 9161234567, 7916…; '442079460958' for
 * +44 20 7946 0958 (and 00 44… or 8 10 44…); null for what cannot be a phone (letters, too few
 * or too many digits, a foreign-looking number without its '+').
 */
export function normalisePhone(raw: string): string | null {
  const text = raw.trim();
  if (!PHONE_SHAPE.test(text)) return null;
  const digits = text.replace(/\D/g, '');
  if (text.startsWith('+')) return international(digits);
  if (digits.startsWith('00')) return international(digits.slice(2));
  // 8 10 is the Russian prefix for dialling abroad; 8 10x… cannot be a Russian number itself
  if (digits.startsWith('810') && digits.length > 11) return international(digits.slice(3));
  if (digits.length === 11 && (digits.startsWith('7') || digits.startsWith('8'))) {
    const national = digits.slice(1);
    return ZONE_7_NATIONAL.test(national) ? `7${national}` : null;
  }
  // ten bare digits are taken as Russian only: a Kazakh 7xx… number needs its +7 or 8
  if (digits.length === 10 && RUSSIAN_NATIONAL.test(digits)) return `7${digits}`;
  return null;
}

function international(digits: string): string | null {
  // "+8 916 …" is the trunk 8 written after a '+': country codes 89x are not assigned
  if (digits.length === 11 && digits.startsWith('89')) return `7${digits.slice(1)}`;
  if (digits.startsWith('7')) return digits.length === 11 && ZONE_7_NATIONAL.test(digits.slice(1)) ? digits : null;
  return E164_DIGITS.test(digits) ? digits : null;
}
