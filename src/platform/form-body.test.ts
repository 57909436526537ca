/**
 * The form reader (form-body.ts): what real plugins send reads as qs read it before; hostile
 * bodies of the body limit are refused by their counts before a single pair is split (the
 * probe's body took qs 6 s). What the worst accepted body costs the event loop is shown over
 * HTTP in test/security-probe.test.ts, beside a benign body of the same size in the same test.
 */
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { hostileFormBodies, realFormBodies } from '../../bench/form-bodies.js';
import { AppError } from './errors.js';
import { MAX_FORM_BRACKETS, MAX_FORM_DEPTH, MAX_FORM_NAMES, MAX_FORM_PARAMETERS, parseForm } from './form-body.js';

/** qs as the service used it before this reader. */
const BEFORE: qs.IParseOptions = { arrayLimit: 10000, parameterLimit: 100000, depth: 12, allowPrototypes: false };

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('no refusal');
}

describe('form bodies as plugins send them', () => {
  const bodies: Record<string, string> = {
    ...realFormBodies(),
    'field notes': 'ids[0]=15&products[0][dimensions][width]=10&applyWidgetSettings=1',
    'lists by []': 'ids[]=3&ids[]=1&statuses[]=12',
    'repeated plain key': 'status=12&status=13',
    'sparse indexes': 'products[5][name]=a&products[2][name]=b',
    'escaped brackets and plus':
      'recipient%5Bname%5D=%D0%98%D0%B2%D0%B0%D0%BD+%D0%9F%D0%B5%D1%82%D1%80%D0%BE%D0%B2&a=1%2B1',
    'empty and bare values': 'a=&b&c=1',
    'nested lists': 'places[0][products][0][id]=1&places[0][products][1][id]=2&places[1][products][0][id]=3',
    'a base64 file': `file=${Buffer.from('x'.repeat(3000)).toString('base64').replace(/\+/g, '%2B').replace(/\//g, '%2F')}`,
  };
  for (const [name, body] of Object.entries(bodies)) {
    it(`reads ${name} as qs did`, () => {
      expect(JSON.parse(JSON.stringify(parseForm(body)))).toEqual(qs.parse(body, BEFORE));
    });
  }

  it('drops keys that name a property of Object.prototype, whole', () => {
    const body = parseForm('__proto__[polluted]=1&a[constructor][x]=2&b[__proto__]=3&c=4&toString=5');
    expect(body).toEqual({ c: '4' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps a malformed %-escape as it is', () => {
    expect(parseForm('a=%ZZ&b[%E0%A4%A]=1')).toEqual({ a: '%ZZ', b: { '%E0%A4%A': '1' } });
  });
});

describe('form bodies within bounds', () => {
  it(`refuses more than ${MAX_FORM_PARAMETERS} fields, ${MAX_FORM_BRACKETS} brackets or ${MAX_FORM_NAMES} names, and keys deeper than ${MAX_FORM_DEPTH}`, () => {
    expect(refusal(() => parseForm('a=1&'.repeat(MAX_FORM_PARAMETERS))).code).toBe('form_too_large');
    expect(refusal(() => parseForm(`a${'[x]'.repeat(4)}=1&`.repeat(MAX_FORM_BRACKETS / 4 + 1))).code).toBe(
      'form_too_large',
    );
    expect(refusal(() => parseForm(`a${'%5Bx%5D'.repeat(4)}=1&`.repeat(MAX_FORM_BRACKETS / 4 + 1))).code).toBe(
      'form_too_large',
    );
    const names = Array.from({ length: MAX_FORM_NAMES + 1 }, (_, index) => `n${index}`);
    expect(refusal(() => parseForm(names.map((name) => `a[${name}]=1`).join('&'))).code).toBe('form_too_large');
    expect(refusal(() => parseForm(names.map((name) => `${name}=1`).join('&'))).code).toBe('form_too_large');
    // indexes are not names: 2000 lines of two fields pass
    expect((parseForm(realFormBodies()['a supply of 2000 lines']).products as unknown[]).length).toBe(2000);
    const deep = refusal(() => parseForm(`a${'[b]'.repeat(MAX_FORM_DEPTH + 1)}=1`));
    expect(deep.code).toBe('form_too_deep');
    expect(deep.errors).toEqual([{ field: 'a.b', message: expect.stringContaining('brackets deep') }]);
    expect(parseForm(`a${'[b]'.repeat(MAX_FORM_DEPTH)}=1`)).toHaveProperty('a');
  });

  it("refuses the probe's body (4 × 10,000 indexes) before splitting it: qs took seconds", () => {
    const probe = hostileFormBodies()["the probe's: 4 lists of 10,000 indexes (425 KiB)"];
    expect(refusal(() => parseForm(probe)).code).toBe('form_too_large');
  });
});
