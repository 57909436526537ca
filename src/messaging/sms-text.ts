/**
 * How many SMS a text takes, as the networks count them (3GPP TS 23.038 alphabets, TS 23.040
 * concatenation): a text wholly in the GSM 7-bit default alphabet holds 160 characters, 153 per
 * part once split (the parts' header takes the rest); anything else goes as UCS-2, 70 UTF-16
 * units, 67 per part. One Cyrillic letter makes the whole text UCS-2, which is why a Russian
 * SMS is 70 characters. The shop sees this before sending and the gateways bill by it.
 */

export interface SmsSegments {
  encoding: 'gsm7' | 'ucs2';
  /** Parts the text is sent as; 0 for an empty text. */
  segments: number;
  /** Units counted: 7-bit septets (an extension-table character is two) or UTF-16 code units. */
  characters: number;
}

/** The default alphabet (the escape to the extension table, 0x1B, is not a character of its own). */
const GSM7_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
/** The extension table: each is sent as the escape and a second septet. */
const GSM7_EXTENSION = new Set('^{}\\[~]|€\f');

const GSM7_SINGLE = 160;
const GSM7_PART = 153;
const UCS2_SINGLE = 70;
const UCS2_PART = 67;

export function smsSegments(text: string): SmsSegments {
  const characters = [...text];
  const gsm7 = characters.every((character) => GSM7_BASIC.has(character) || GSM7_EXTENSION.has(character));
  // GSM: septets per character; UCS-2: UTF-16 units (an emoji is a surrogate pair, two units)
  const sizes = characters.map((character) => (gsm7 ? (GSM7_EXTENSION.has(character) ? 2 : 1) : character.length));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const single = gsm7 ? GSM7_SINGLE : UCS2_SINGLE;
  const part = gsm7 ? GSM7_PART : UCS2_PART;
  const segments = total === 0 ? 0 : total <= single ? 1 : partsOf(sizes, part);
  return { encoding: gsm7 ? 'gsm7' : 'ucs2', segments, characters: total };
}

/**
 * Parts filled in order. A character is never cut between two parts (an escape pair or a
 * surrogate pair would arrive broken), so a part may end one unit short and a text one part
 * longer than its length alone says.
 */
function partsOf(sizes: number[], capacity: number): number {
  let parts = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > capacity) {
      parts += 1;
      used = 0;
    }
    used += size;
  }
  return parts;
}
