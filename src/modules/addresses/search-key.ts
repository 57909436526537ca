/**
 * The register's search keys, written at import and read by suggestions and cleaning. Shared with
 * the importer (the same two functions: reconciled at merge with its copy): a key must be made the
 * same way on both sides or a row is never found.
 */

/** Lower case, ё → е, every run of punctuation and spaces one space: "Маршала Жукова", "маршала  жукова." → "маршала жукова". */
export function searchKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * A house's number with its additions as one key: "12к2с1" (number, к and the корпус, с and the
 * строение); the fraction's slash is kept ("12/2"), spaces and other punctuation dropped. Which
 * addition is a корпус and which a строение is the caller's (the register's ADDTYPE1/2): `add1`
 * goes after "к", `add2` after "с".
 */
export function houseSearchKey(num: string | null, add1: string | null, add2: string | null): string {
  const part = (value: string | null) =>
    (value ?? '')
      .toLowerCase()
      .replace(/ё/g, 'е')
      .replace(/[^\p{L}\p{N}/]+/gu, '');
  const number = part(num);
  const block = part(add1);
  const building = part(add2);
  return `${number}${block ? `к${block}` : ''}${building ? `с${building}` : ''}`;
}
