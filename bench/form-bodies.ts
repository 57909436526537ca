/**
 * Form bodies for the parser's bench and tests: the largest real ones plugins send, and hostile
 * ones filling the body limit (2 MiB) in the shapes that cost a parser most.
 */
import { MAX_FORM_PARAMETERS } from '../src/platform/form-body.js';

const BODY_LIMIT = 2 * 1024 * 1024;

/** Pairs `make(i)` joined by `&` until the next would pass `bytes`. */
export function formOfSize(bytes: number, make: (index: number) => string): string {
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; ; index += 1) {
    const part = make(index);
    if (length + part.length + 1 > bytes) break;
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join('&');
}

function pairs(count: number, make: (index: number) => string): string {
  return Array.from({ length: count }, (_, index) => make(index)).join('&');
}

/** What real plugins send at their largest: an order of 100 lines, a supply of 2000. */
export function realFormBodies(): Record<string, string> {
  const orderLine = (line: number) =>
    [
      `products[${line}][name]=%D0%A2%D0%BE%D0%B2%D0%B0%D1%80+${line}`,
      `products[${line}][vendorCode]=SKU-${line}`,
      `products[${line}][price]=1490.50`,
      `products[${line}][count]=1`,
      `products[${line}][weight]=0.4`,
      `products[${line}][dimensions][width]=10`,
      `products[${line}][dimensions][height]=5`,
      `products[${line}][dimensions][length]=20`,
    ].join('&');
  return {
    'an order of 100 lines': `recipient[name]=Ivan&recipient[phone]=79990000000&delivery[type]=2&${pairs(100, orderLine)}`,
    'a supply of 2000 lines': `date=2026-12-01&places=3&type=boxes&${pairs(2000, (line) => `products[${line}][id]=${line + 1}&products[${line}][count]=5`)}`,
  };
}

/** Hostile bodies of the body limit: the probe's (indexed keys in four lists) and its relatives. */
export function hostileFormBodies(): Record<string, string> {
  return {
    // the worst the reader accepts: as many fields, brackets and names as allowed; each field makes
    // objects no other field shares (an index of its own), under 900 names in varying orders
    'the worst accepted: 20,000 fields of 3 new objects each': formOfSize(BODY_LIMIT, (index) =>
      index < MAX_FORM_PARAMETERS - 1
        ? `k${index % 900}[${index}][n${index % 47}][m${index % 53}]=${'v'.repeat(40)}`
        : '',
    ).replace(/&+$/, ''),
    'distinct names, each a new object, to the body limit': formOfSize(
      BODY_LIMIT,
      (index) => `k${index}[n${index}][m${index}]=1`,
    ),
    "the probe's: 4 lists of 10,000 indexes (425 KiB)": Array.from({ length: 4 }, (_, list) =>
      pairs(10_000, (index) => `k${list}[${index}]=1`),
    ).join('&'),
    '4 lists of indexes to the body limit': formOfSize(BODY_LIMIT, (index) => `k${index % 4}[${index >> 2}]=1`),
    'one list of [] appends to the body limit': formOfSize(BODY_LIMIT, () => 'a[]=1'),
    'one object of distinct keys to the body limit': formOfSize(BODY_LIMIT, (index) => `a[b${index}]=1`),
    'keys 12 brackets deep to the body limit': formOfSize(
      BODY_LIMIT,
      (index) => `a${index % 7}[b][c][d][e][f][g][h][i][j][k][l][${index}]=1`,
    ),
    'bare separators to the body limit': '&'.repeat(BODY_LIMIT - 1),
    'percent-escaped keys to the body limit': formOfSize(BODY_LIMIT, (index) => `a%5B${index}%5D%5Bx%5D=%D0%AF`),
  };
}
