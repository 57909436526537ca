/**
 * Why the request validator (platform/validation.ts) is ours and not Ajv's coercion: the same
 * PHP form bodies (every value a string, as shop plugins send them) read by our validator and
 * by Ajv 8 with `coerceTypes: 'array'`, `useDefaults`, `removeAdditional` (what Fastify's own
 * validator does), on the calculator's and the order's real schemas; it counts the cases whose
 * outcome differs (accepted or refused, or another value), then times one valid JSON body.
 *   npx tsx bench/validation-vs-ajv.ts
 */
import { performance } from 'node:perf_hooks';
import { Ajv } from 'ajv';
import qs from 'qs';
import type { TSchema } from 'typebox';
import { CALCULATOR_EXAMPLE } from '../src/modules/calculator/routes.js';
import { CalculatorBody } from '../src/modules/calculator/schemas.js';
import { compileValidator, markFormEncoded } from '../src/platform/validation.js';

const form = (text: string) => markFormEncoded(qs.parse(text, { depth: 10, arrayLimit: 1000 }) as object);
const base =
  'sender[countryCode]=RU&sender[cityName]=Москва&reception[countryCode]=RU&reception[cityName]=Санкт-Петербург&pickupType=1';
const product =
  'products[0][count]=1&products[0][weight]=0.5&products[0][dimensions][width]=15&products[0][dimensions][height]=4&products[0][dimensions][length]=22';

/** PHP plugins' spellings, each a case where a shop expects a plain reading. */
const CASES: Record<string, string> = {
  'numbers as strings': `${base}&${product}`,
  'decimal comma (1C, Bitrix)': `${base}&${product.replace('0.5', '0,5')}`,
  'an empty optional number is "not given"': `${base}&${product}&priceCod=`,
  'an empty optional text is "not given"': `${base}&${product}&reception[fias]=`,
  'booleans as on/yes': `${base}&${product}&applyWidgetSettings=yes`,
  'a list past qs arrayLimit (indexed object)': `${base}&products[25][count]=1&products[25][weight]=0.5&products[25][dimensions][width]=1&products[25][dimensions][height]=1&products[25][dimensions][length]=1`,
  'text with a NUL': `${base}&${product}&sender[cityName]=Мос%00ква`,
  'null spelt out': `${base}&${product}&priceCod=null`,
};

function ours(schema: TSchema) {
  const validator = compileValidator(schema, 'body');
  return (value: unknown) => {
    try {
      return { ok: true, value: JSON.stringify(validator.parse(value)) };
    } catch (error) {
      return { ok: false, value: (error as Error).message };
    }
  };
}

function ajvs(schema: TSchema) {
  const ajv = new Ajv({
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: true,
    allErrors: true,
    strict: false,
  });
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema)));
  return (value: unknown) => {
    const copy = structuredClone(value);
    return validate(copy)
      ? { ok: true, value: JSON.stringify(copy) }
      : { ok: false, value: ajv.errorsText(validate.errors) };
  };
}

const mine = ours(CalculatorBody);
const theirs = ajvs(CalculatorBody);
let differ = 0;
for (const [name, text] of Object.entries(CASES)) {
  const [a, b] = [mine(form(text)), theirs({ ...form(text) })];
  const same = a.ok === b.ok && a.value === b.value;
  if (!same) differ++;
  console.log(
    `${same ? 'same  ' : 'DIFFER'} ${name}: ours ${a.ok ? 'accepts' : 'refuses'}, Ajv ${b.ok ? 'accepts' : 'refuses'}${a.ok && b.ok && !same ? ' another value' : ''}`,
  );
}
console.log(`\n${differ} of ${Object.keys(CASES).length} form cases read differently by Ajv's coercion`);

const body = CALCULATOR_EXAMPLE.value;
for (const [name, parse] of [
  ['ours', mine],
  ['Ajv', theirs],
] as const) {
  for (let i = 0; i < 2000; i++) parse(body);
  const started = performance.now();
  const rounds = 20_000;
  for (let i = 0; i < rounds; i++) parse(body);
  console.log(
    `${name}: ${Math.round((rounds / (performance.now() - started)) * 1000)} valid JSON calculator bodies a second`,
  );
}
