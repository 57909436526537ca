/**
 * The SMS side of messaging: phones as the gateways want them, how many parts a text takes, and
 * both gateways' clients against fakes that answer as SMS.RU and SMSC do (test/support/fake-sms-gateways.ts):
 * what goes over the wire, what comes back, and which refusals are worth a retry.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BLOCKED_SENDER,
  type FakeSmsGateway,
  PRICE_PER_PART,
  REFUSED_NUMBER_PREFIX,
  SMSC_LOGIN,
  SMSC_PASSWORD,
  SMSRU_API_ID,
  startFakeSmsc,
  startFakeSmsRu,
  UNREACHABLE_NUMBER_PREFIX,
} from '../../test/support/fake-sms-gateways.js';
import { gatewayText } from './gateway-http.js';
import { normalisePhone } from './phone.js';
import { SmsRuGateway } from './sms-ru.js';
import { smsSegments } from './sms-text.js';
import { SmscGateway } from './smsc.js';
import { MessagingError, type SmsGateway } from './types.js';

describe('normalisePhone', () => {
  it.each([
    ['+7 916 123-45-67', '79161234567'],
    ['+7 (916) 123-45-67', '79161234567'],
    ['8 (916) 1234567', '79161234567'],
    ['8-916-123-45-67', '79161234567'],
    ['89161234567', '79161234567'],
    ['9161234567', '79161234567'],
    ['(916) 123 45 67', '79161234567'],
    ['79161234567', '79161234567'],
    ['  +79161234567  ', '79161234567'],
    ['+7\u00a0916\u00a0123\u201145\u201167', '79161234567'],
    ['8 (495) 123-45-67', '74951234567'],
    ['4951234567', '74951234567'],
    ['8 800 555-35-35', '78005553535'],
    ['+8 916 123-45-67', '79161234567'],
    ['+7 701 123 45 67', '77011234567'],
    ['8 701 123 45 67', '77011234567'],
    ['+44 20 7946 0958', '442079460958'],
    ['+1 (212) 555-0123', '12125550123'],
    ['+375 29 123-45-67', '375291234567'],
    ['00 44 20 7946 0958', '442079460958'],
    ['8 10 49 30 1234567', '49301234567'],
  ])('%s → %s', (raw, expected) => {
    expect(normalisePhone(raw)).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['abc', 'letters'],
    ['+7 916 CALL-NOW', 'letters among digits'],
    ['916 123 45', 'too few digits'],
    ['+7 916 123 45 678', 'eleven digits behind +7'],
    ['8 916 123 45 678', 'twelve digits with the trunk 8'],
    ['1234567890', 'ten digits that are no Russian number'],
    ['7011234567', 'a bare Kazakh number (its +7 or 8 is needed)'],
    ['375291234567', 'a foreign number without its +'],
    ['+12345', 'too short for E.164'],
    ['+1234567890123456', 'longer than E.164'],
    ['++79161234567', 'two pluses'],
    ['79161234567+', 'a plus at the end'],
    ['+0 916 123 45 67', 'no country code starts with 0'],
    ['8 (916) 123-45-67 доб. 12', 'an extension'],
  ])('%s is no phone (%s)', (raw) => {
    expect(normalisePhone(raw)).toBeNull();
  });
});

describe('smsSegments', () => {
  const cyrillic = (length: number) => 'Ваш заказ собран и передан в доставку. '.repeat(10).slice(0, length);
  const latin = (length: number) => 'Your order is packed and on its way. '.repeat(10).slice(0, length);

  it.each([
    [1, 1],
    [70, 1],
    [71, 2],
    [134, 2],
    [135, 3],
    [201, 3],
    [202, 4],
  ])('Cyrillic, %i characters: UCS-2 in %i part(s)', (length, segments) => {
    const text = cyrillic(length);
    expect(text).toHaveLength(length);
    expect(smsSegments(text)).toEqual({ encoding: 'ucs2', segments, characters: length });
  });

  it.each([
    [1, 1],
    [160, 1],
    [161, 2],
    [306, 2],
    [307, 3],
  ])('Latin, %i characters: GSM 7-bit in %i part(s)', (length, segments) => {
    const text = latin(length);
    expect(text).toHaveLength(length);
    expect(smsSegments(text)).toEqual({ encoding: 'gsm7', segments, characters: length });
  });

  it('counts an extension-table character as two septets', () => {
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'gsm7', segments: 1, characters: 160 });
    expect(smsSegments('€'.repeat(81))).toEqual({ encoding: 'gsm7', segments: 2, characters: 162 });
    expect(smsSegments(`Order [A-1] {ok} ~ ^ | \\ ${'x'.repeat(10)}`).encoding).toBe('gsm7');
  });

  it('never cuts an escape pair between parts', () => {
    // 152 plain septets then '€' (2): 154 do not fit the first part of 153; the '€' opens the second
    expect(smsSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`)).toEqual({
      encoding: 'gsm7',
      segments: 3,
      characters: 306,
    });
  });

  it('takes the GSM accented letters as GSM, and one Cyrillic letter or emoji as UCS-2 for the whole text', () => {
    expect(smsSegments('Café à Paris, ñ, ü, Ø').encoding).toBe('gsm7');
    expect(smsSegments(`${latin(100)}ж`)).toEqual({ encoding: 'ucs2', segments: 2, characters: 101 });
    expect(smsSegments('ç').encoding).toBe('ucs2'); // lower-case ç is not in the default alphabet
  });

  it('counts UTF-16 units: an emoji is two and is never cut between parts', () => {
    expect(smsSegments('😀'.repeat(35))).toEqual({ encoding: 'ucs2', segments: 1, characters: 70 });
    // 36 emoji = 72 units: 33 fit a part of 67 (66 units), 3 go to the second
    expect(smsSegments('😀'.repeat(36))).toEqual({ encoding: 'ucs2', segments: 2, characters: 72 });
    expect(smsSegments(`${'ж'.repeat(66)}😀${'ж'.repeat(10)}`)).toEqual({
      encoding: 'ucs2',
      segments: 2,
      characters: 78,
    });
  });

  it('gives an empty text no part', () => {
    expect(smsSegments('')).toEqual({ encoding: 'gsm7', segments: 0, characters: 0 });
  });
});

describe("a gateway's words in an error", () => {
  it('are cut short and never repeat a credential, should a gateway echo one', () => {
    const key = '5C7A3E12-SECRET';
    expect(gatewayText(`Неправильный api_id ${key}`, [key])).toBe('Неправильный api_id ***');
    expect(gatewayText('x'.repeat(500), [])).toHaveLength(200);
    expect(gatewayText(undefined, [key])).toBe('');
  });
});

const RUSSIAN_TEXT = 'Заказ №1024 передан в доставку. Трек: RU123456789. Ёлки и «кавычки» — тоже.';
const PHONE = '79161234567';

/** The refusal a call ends in, for its fields to be read. */
async function refusalOf(call: Promise<unknown>): Promise<MessagingError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof MessagingError) return error;
    throw error;
  }
  throw new Error('expected a MessagingError, the call succeeded');
}

/** The same contract asked of both gateways against their fakes. */
function gatewayContract(
  name: string,
  start: () => Promise<FakeSmsGateway>,
  connect: (fake: FakeSmsGateway, sender?: string | null) => SmsGateway,
  withWrongCredentials: (fake: FakeSmsGateway) => SmsGateway,
  secrets: string[],
) {
  describe(`${name} against its fake`, () => {
    let fake: FakeSmsGateway;
    const signal = () => AbortSignal.timeout(5_000);

    beforeAll(async () => {
      fake = await start();
    });
    afterAll(async () => {
      await fake.close();
    });
    afterEach(() => {
      fake.setBalance(100);
      fake.failNext(0);
    });

    it('sends, and reads the message back as delivered', async () => {
      const gateway = connect(fake);
      const sent = await gateway.send({ phone: PHONE, text: RUSSIAN_TEXT }, signal());
      expect(sent.gatewayId).toMatch(/\S/);
      expect(sent.segments).toBe(2); // 77 Cyrillic characters: two parts of 67
      expect(fake.sent.at(-1)).toEqual({ phone: PHONE, text: RUSSIAN_TEXT, sender: null });
      expect(await gateway.status(sent.gatewayId, PHONE, signal())).toMatchObject({ status: 'delivered' });
    });

    it('reads a message that never arrived as failed, with the reason', async () => {
      const gateway = connect(fake);
      const phone = `${UNREACHABLE_NUMBER_PREFIX}1234567`;
      const sent = await gateway.send({ phone, text: 'Hello' }, signal());
      const status = await gateway.status(sent.gatewayId, phone, signal());
      expect(status.status).toBe('failed');
      expect(status.reason).toMatch(/\w/);
    });

    it('refuses to find a message it never sent, for good', async () => {
      const refusal = await refusalOf(connect(fake).status('999999', PHONE, signal()));
      expect({ permanent: refusal.permanent, code: refusal.code }).toEqual({ permanent: true, code: 'not_found' });
    });

    it('checks the credentials with the balance', async () => {
      fake.setBalance(1234.5);
      expect(await connect(fake).check(signal())).toEqual({ balanceRoubles: 1234.5 });
    });

    it('gives a bad key for good, in words that do not repeat it', async () => {
      const gateway = withWrongCredentials(fake);
      for (const call of [gateway.send({ phone: PHONE, text: 'Hi' }, signal()), gateway.check(signal())]) {
        const refusal = await refusalOf(call);
        expect({ permanent: refusal.permanent, code: refusal.code }).toEqual({ permanent: true, code: 'auth' });
        for (const secret of secrets) expect(refusal.message).not.toContain(secret);
      }
    });

    it('gives a refused number for good', async () => {
      const refusal = await refusalOf(
        connect(fake).send({ phone: `${REFUSED_NUMBER_PREFIX}1234567`, text: 'Hi' }, signal()),
      );
      expect({ permanent: refusal.permanent, code: refusal.code }).toEqual({ permanent: true, code: 'bad_number' });
    });

    it('gives a blocked sender for good', async () => {
      const refusal = await refusalOf(connect(fake, BLOCKED_SENDER).send({ phone: PHONE, text: 'Hi' }, signal()));
      expect(refusal.permanent).toBe(true);
      expect(['sender', 'forbidden']).toContain(refusal.code);
    });

    it('gives no money for good: only a top-up helps, and the message says so', async () => {
      fake.setBalance(0);
      const refusal = await refusalOf(connect(fake).send({ phone: PHONE, text: 'Hi' }, signal()));
      expect({ permanent: refusal.permanent, code: refusal.code }).toEqual({ permanent: true, code: 'no_money' });
      expect(refusal.message).toMatch(/top it up/);
    });

    it('gives a server that is down as worth a retry: a 500, a closed connection, nobody listening', async () => {
      fake.failNext(1, 'status500');
      const down = await refusalOf(connect(fake).send({ phone: PHONE, text: 'Hi' }, signal()));
      expect({ permanent: down.permanent, code: down.code }).toEqual({ permanent: false, code: 'server' });

      fake.failNext(1, 'close');
      const closed = await refusalOf(connect(fake).check(signal()));
      expect({ permanent: closed.permanent, code: closed.code }).toEqual({ permanent: false, code: 'no_answer' });

      const nobody = withBaseUrl(name, 'http://127.0.0.1:9');
      const unreachable = await refusalOf(nobody.check(signal()));
      expect(unreachable.permanent).toBe(false);
    });

    it("leaves the caller's deadline to the caller", async () => {
      const aborted = AbortSignal.abort(new Error('deadline'));
      await expect(connect(fake).check(aborted)).rejects.toThrow('deadline');
    });
  });
}

function withBaseUrl(name: string, baseUrl: string): SmsGateway {
  return name === 'SMS.RU'
    ? new SmsRuGateway({ apiId: SMSRU_API_ID, baseUrl })
    : new SmscGateway({ login: SMSC_LOGIN, password: SMSC_PASSWORD, baseUrl });
}

gatewayContract(
  'SMS.RU',
  startFakeSmsRu,
  (fake, sender) => new SmsRuGateway({ apiId: SMSRU_API_ID, baseUrl: fake.url, sender }),
  (fake) => new SmsRuGateway({ apiId: 'WRONG-API-ID-0000', baseUrl: fake.url }),
  ['WRONG-API-ID-0000'],
);

gatewayContract(
  'SMSC',
  startFakeSmsc,
  (fake, sender) => new SmscGateway({ login: SMSC_LOGIN, password: SMSC_PASSWORD, baseUrl: fake.url, sender }),
  (fake) => new SmscGateway({ login: SMSC_LOGIN, password: 'wrong-password-0000', baseUrl: fake.url }),
  [SMSC_LOGIN, 'wrong-password-0000'],
);

describe('on the wire', () => {
  let smsRu: FakeSmsGateway;
  let smsc: FakeSmsGateway;
  const signal = () => AbortSignal.timeout(5_000);

  beforeAll(async () => {
    [smsRu, smsc] = await Promise.all([startFakeSmsRu(), startFakeSmsc()]);
  });
  afterAll(async () => {
    await Promise.all([smsRu.close(), smsc.close()]);
  });

  it('SMS.RU: a POST form to /sms/send with api_id, to, msg in UTF-8, from and json=1', async () => {
    const gateway = new SmsRuGateway({ apiId: SMSRU_API_ID, baseUrl: `${smsRu.url}/`, sender: 'MyShop' });
    const sent = await gateway.send({ phone: PHONE, text: RUSSIAN_TEXT }, signal());
    const request = smsRu.requests.at(-1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/sms/send',
      contentType: 'application/x-www-form-urlencoded',
      rawQuery: '',
      params: { api_id: SMSRU_API_ID, to: PHONE, msg: RUSSIAN_TEXT, from: 'MyShop', json: '1' },
    });
    // the text as percent-encoded UTF-8 bytes: "Заказ" is D0 97 D0 B0 D0 BA D0 B0 D0 B7
    expect(request?.rawBody).toContain('msg=%D0%97%D0%B0%D0%BA%D0%B0%D0%B7');
    expect(sent.costRoubles).toBeNull(); // SMS.RU's send answer names no cost

    await gateway.status(sent.gatewayId, PHONE, signal());
    expect(smsRu.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/sms/status',
      params: { api_id: SMSRU_API_ID, sms_id: sent.gatewayId, json: '1' },
    });
    await gateway.check(signal());
    expect(smsRu.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/my/balance',
      params: { api_id: SMSRU_API_ID, json: '1' },
    });
  });

  it("SMS.RU: the message's own sender wins over the account's", async () => {
    const gateway = new SmsRuGateway({ apiId: SMSRU_API_ID, baseUrl: smsRu.url, sender: 'MyShop' });
    await gateway.send({ phone: PHONE, text: 'Hi', sender: 'Other' }, signal());
    expect(smsRu.requests.at(-1)?.params.from).toBe('Other');
    await new SmsRuGateway({ apiId: SMSRU_API_ID, baseUrl: smsRu.url }).send({ phone: PHONE, text: 'Hi' }, signal());
    expect(smsRu.requests.at(-1)?.params).not.toHaveProperty('from');
  });

  it('SMSC: a POST form to /sys/send.php with login, psw, phones, mes, sender, charset=utf-8, fmt=3, cost=3', async () => {
    smsc.setBalance(50);
    const gateway = new SmscGateway({
      login: SMSC_LOGIN,
      password: SMSC_PASSWORD,
      baseUrl: smsc.url,
      sender: 'MyShop',
    });
    const sent = await gateway.send({ phone: PHONE, text: RUSSIAN_TEXT }, signal());
    const request = smsc.requests.at(-1);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/sys/send.php',
      contentType: 'application/x-www-form-urlencoded',
      rawQuery: '',
      params: {
        login: SMSC_LOGIN,
        psw: SMSC_PASSWORD,
        phones: PHONE,
        mes: RUSSIAN_TEXT,
        sender: 'MyShop',
        charset: 'utf-8',
        fmt: '3',
        cost: '3',
      },
    });
    expect(request?.rawBody).toContain('mes=%D0%97%D0%B0%D0%BA%D0%B0%D0%B7');
    // the fake read the text as UTF-8 because the request said so: the Cyrillic arrived intact
    expect(smsc.sent.at(-1)?.text).toBe(RUSSIAN_TEXT);
    expect(sent).toEqual({ gatewayId: sent.gatewayId, segments: 2, costRoubles: 2 * PRICE_PER_PART });
    expect(smsc.balance()).toBe(50 - 2 * PRICE_PER_PART);

    await gateway.status(sent.gatewayId, PHONE, signal());
    expect(smsc.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/sys/status.php',
      params: { login: SMSC_LOGIN, psw: SMSC_PASSWORD, phone: PHONE, id: sent.gatewayId, fmt: '3' },
    });
    await gateway.check(signal());
    expect(smsc.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/sys/balance.php',
      params: { login: SMSC_LOGIN, psw: SMSC_PASSWORD, fmt: '3' },
    });
  });

  it('SMSC: without charset=utf-8 the fake garbles Cyrillic as the real one would (the fake is honest)', async () => {
    const body = new URLSearchParams({ login: SMSC_LOGIN, psw: SMSC_PASSWORD, phones: PHONE, mes: 'Привет', fmt: '3' });
    const response = await fetch(`${smsc.url}/sys/send.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
    });
    expect(response.status).toBe(200);
    expect(smsc.sent.at(-1)?.text).not.toBe('Привет');
  });

  it('SMSC: a number refused with an id leaves a message whose status reads failed', async () => {
    // errors 3, 6, 7 and 8 carry the message's id; the client refuses for good, the id still answers
    const phone = `${REFUSED_NUMBER_PREFIX}7654321`;
    const response = await fetch(`${smsc.url}/sys/send.php`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        login: SMSC_LOGIN,
        psw: SMSC_PASSWORD,
        phones: phone,
        mes: 'Hi',
        fmt: '3',
        charset: 'utf-8',
      }).toString(),
    });
    const refused = (await response.json()) as { error_code: number; id: number };
    expect(refused).toMatchObject({ error: 'invalid number', error_code: 7 });
    const gateway = new SmscGateway({ login: SMSC_LOGIN, password: SMSC_PASSWORD, baseUrl: smsc.url });
    expect(await gateway.status(String(refused.id), phone, signal())).toEqual({
      status: 'failed',
      reason: 'wrong number',
    });
  });
});
