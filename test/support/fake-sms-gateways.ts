/**
 * Fake SMS.RU and SMSC, written from the same documentation and recorded answers as the clients
 * (see src/messaging/sms-ru.ts and smsc.ts): the same paths, form or query fields, JSON shapes and
 * codes, every refusal inside an HTTP 200 as the real ones give it. Each keeps the messages it
 * accepted and every request as it came over the wire, and can be made to refuse:
 * - a wrong api_id / login or password;
 * - a number starting 7000 (refused at sending) — and one starting 7001 is accepted but never
 *   arrives (its status reads failed);
 * - the sender name 'BLOCKED';
 * - no money (setBalance(0));
 * - being down: failNext(n) answers the next n requests with a 500, or closes their connections.
 * SMSC reads the text in the charset the request names (windows-1251 unless charset=utf-8), as the
 * real one does, so a client that forgets charset=utf-8 gets its Cyrillic garbled here too.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { smsSegments } from '../../src/messaging/sms-text.js';

export const SMSRU_API_ID = '5C7A3E12-94B1-4C2D-8E0F-000000000001';
export const SMSC_LOGIN = 'shop-login';
export const SMSC_PASSWORD = 'smsc-test-password-0001';
/** Numbers the fakes refuse at sending. */
export const REFUSED_NUMBER_PREFIX = '7000';
/** Numbers the fakes accept but that never arrive. */
export const UNREACHABLE_NUMBER_PREFIX = '7001';
export const BLOCKED_SENDER = 'BLOCKED';
/** Roubles per SMS part, as both fakes charge. */
export const PRICE_PER_PART = 3.5;

export interface FakeSmsMessage {
  id: string;
  phone: string;
  text: string;
  sender: string | null;
  /** What status reads: delivered, never delivered, or refused at sending (SMSC keeps those too). */
  fate: 'delivered' | 'unreachable' | 'bad_number' | 'forbidden' | 'no_money';
  parts: number;
  cost: number;
}

/** A request as it came: method, path, content type, the raw body, and the fields read from it. */
export interface WireRequest {
  method: string;
  path: string;
  contentType: string;
  rawQuery: string;
  rawBody: string;
  params: Record<string, string>;
}

export interface FakeSmsGateway {
  url: string;
  /** Messages accepted for sending. */
  sent: Array<{ phone: string; text: string; sender: string | null }>;
  requests: WireRequest[];
  setBalance(roubles: number): void;
  balance(): number;
  /** The next n requests fail: a 500 with an HTML page, or a connection closed without an answer. */
  failNext(n: number, how?: 'status500' | 'close'): void;
  close(): Promise<void>;
}

interface Exchange {
  request: WireRequest;
  json(value: unknown, charset?: string): void;
  text(value: string): void;
}

/** A node:http server on 127.0.0.1 handing each request, read whole, to `handle`. */
async function startFake(
  charsetOf: (query: string, body: string) => string,
  handle: (exchange: Exchange) => void,
): Promise<Pick<FakeSmsGateway, 'url' | 'requests' | 'failNext' | 'close'>> {
  const requests: WireRequest[] = [];
  let failures = 0;
  let failure: 'status500' | 'close' = 'status500';
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      if (failures > 0) {
        failures -= 1;
        if (failure === 'close') return incoming.socket.destroy();
        response.writeHead(500, { 'content-type': 'text/html' });
        return response.end('<html><body><h1>500 Internal Server Error</h1></body></html>');
      }
      const [path, rawQuery = ''] = (incoming.url ?? '').split('?', 2);
      const rawBody = Buffer.concat(chunks).toString('latin1');
      const contentType = incoming.headers['content-type'] ?? '';
      const charset = charsetOf(rawQuery, rawBody);
      const params = {
        ...decodeForm(rawQuery, charset),
        ...(contentType.startsWith('application/x-www-form-urlencoded') ? decodeForm(rawBody, charset) : {}),
      };
      const request = { method: incoming.method ?? 'GET', path, contentType, rawQuery, rawBody, params };
      requests.push(request);
      handle({
        request,
        json: (value, answerCharset = 'utf-8') => {
          response.writeHead(200, { 'content-type': `application/json; charset=${answerCharset}` });
          response.end(JSON.stringify(value));
        },
        text: (value) => {
          response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
          response.end(value);
        },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext: (n, how = 'status500') => {
      failures = n;
      failure = how;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Form fields decoded as a server in that charset decodes them: %XX are bytes of the charset
 * (URLSearchParams would take them as UTF-8 whatever the request said).
 */
function decodeForm(raw: string, charset: string): Record<string, string> {
  const decoder = new TextDecoder(charset);
  const decode = (part: string): string => {
    const bytes: number[] = [];
    const text = part.replace(/\+/g, ' ');
    for (let index = 0; index < text.length; index += 1) {
      if (text[index] === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(index + 1, index + 3))) {
        bytes.push(Number.parseInt(text.slice(index + 1, index + 3), 16));
        index += 2;
      } else bytes.push(...Buffer.from(text[index], 'latin1'));
    }
    return decoder.decode(Uint8Array.from(bytes));
  };
  const fields: Record<string, string> = {};
  for (const pair of raw.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    fields[decode(at < 0 ? pair : pair.slice(0, at))] = at < 0 ? '' : decode(pair.slice(at + 1));
  }
  return fields;
}

/** A field's raw value before decoding (the charset field is plain ASCII). */
function rawField(raw: string, name: string): string | null {
  for (const pair of raw.split('&')) if (pair.startsWith(`${name}=`)) return pair.slice(name.length + 1);
  return null;
}

const roubles = (value: number): number => Math.round(value * 100) / 100;

function fateOf(phone: string): FakeSmsMessage['fate'] {
  if (phone.startsWith(REFUSED_NUMBER_PREFIX)) return 'bad_number';
  return phone.startsWith(UNREACHABLE_NUMBER_PREFIX) ? 'unreachable' : 'delivered';
}

/** Ids like SMS.RU's own ("000000-10000000"). */
function smsRuIdOf(sequence: number): string {
  return `202501-${String(10_000_000 + sequence)}`;
}

export async function startFakeSmsRu(): Promise<FakeSmsGateway> {
  const sent: FakeSmsGateway['sent'] = [];
  const messages = new Map<string, FakeSmsMessage>();
  let balance = 100;
  let sequence = 0;
  // SMS.RU takes UTF-8 only (its code 212 refuses anything else)
  const fake = await startFake(
    () => 'utf-8',
    ({ request, json, text }) => {
      const { params } = request;
      const answer = (value: Record<string, unknown>) =>
        params.json === '1' ? json(value) : text(String(value.status_code));
      const refuse = (code: number, statusText: string) =>
        answer({ status: 'ERROR', status_code: code, status_text: statusText });
      if (params.api_id !== SMSRU_API_ID) return refuse(200, 'Неправильный api_id');
      if (request.path === '/my/balance') return answer({ status: 'OK', status_code: 100, balance: roubles(balance) });
      if (request.path === '/sms/send') {
        const message = params.msg ?? '';
        const sender = params.from ?? null;
        if (message === '') return refuse(203, 'Нет текста сообщения');
        if (sender === BLOCKED_SENDER)
          return refuse(204, 'Вы не подключили данного оператора. Подайте заявку через раздел «Отправители»');
        const phones = (params.to ?? '').split(',').filter((phone) => phone !== '');
        const parts = smsSegments(message).segments;
        const accepted = phones.filter((phone) => fateOf(phone) !== 'bad_number');
        if (accepted.length * parts * PRICE_PER_PART > balance)
          return refuse(201, 'Не хватает средств на лицевом счету');
        const sms: Record<string, unknown> = {};
        for (const phone of phones) {
          if (!/^\d{10,15}$/.test(phone) || fateOf(phone) === 'bad_number') {
            sms[phone] = {
              status: 'ERROR',
              status_code: 202,
              status_text: 'Неправильно указан номер телефона получателя, либо на него нет маршрута',
            };
            continue;
          }
          sequence += 1;
          const id = smsRuIdOf(sequence);
          const cost = parts * PRICE_PER_PART;
          balance -= cost;
          messages.set(id, { id, phone, text: message, sender, fate: fateOf(phone), parts, cost });
          sent.push({ phone, text: message, sender });
          sms[phone] = { status: 'OK', status_code: 100, sms_id: id };
        }
        return answer({ status: 'OK', status_code: 100, sms, balance: roubles(balance) });
      }
      if (request.path === '/sms/status') {
        const sms: Record<string, unknown> = {};
        for (const id of (params.sms_id ?? '').split(',').filter((each) => each !== '')) {
          const message = messages.get(id);
          sms[id] = !message
            ? { status: 'ERROR', status_code: -1, status_text: 'Сообщение не найдено' }
            : message.fate === 'delivered'
              ? { status: 'OK', status_code: 103, cost: roubles(message.cost), status_text: 'Сообщение доставлено' }
              : {
                  status: 'OK',
                  status_code: 104,
                  cost: roubles(message.cost),
                  status_text: 'Не может быть доставлено: время жизни истекло',
                };
        }
        return answer({ status: 'OK', status_code: 100, sms, balance: roubles(balance) });
      }
      return refuse(211, 'Метод не найден');
    },
  );
  return {
    ...fake,
    sent,
    setBalance: (value) => {
      balance = value;
    },
    balance: () => balance,
  };
}

/** SMSC's "18.10.2016 15:34:12" (the cassettes' last_date). */
function smscDate(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(date.getDate())}.${two(date.getMonth() + 1)}.${date.getFullYear()} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** status.php's state for each fate (see the client's table). */
const SMSC_STATUS: Record<FakeSmsMessage['fate'], number> = {
  delivered: 1,
  unreachable: 20,
  bad_number: 22,
  forbidden: 23,
  no_money: 24,
};

export async function startFakeSmsc(): Promise<FakeSmsGateway> {
  const sent: FakeSmsGateway['sent'] = [];
  const messages = new Map<string, FakeSmsMessage>();
  let balance = 100;
  let sequence = 32;
  const fake = await startFake(
    (query, body) => (rawField(body, 'charset') ?? rawField(query, 'charset') ?? 'windows-1251').toLowerCase(),
    ({ request, json, text }) => {
      const { params } = request;
      const charset = params.charset === 'utf-8' ? 'utf-8' : 'windows-1251';
      // the texts of fmt=3 refusals are SMSC's own (English), as recorded from smsc.ru
      const answer = (value: Record<string, unknown>) => {
        if (params.fmt === '3') return json(value, charset);
        if (typeof value.error_code === 'number') return text(`ERROR = ${value.error_code} (${String(value.error)})`);
        return text(Object.values(value).join(','));
      };
      if (params.login !== SMSC_LOGIN || params.psw !== SMSC_PASSWORD)
        return answer({ error: 'authorise error', error_code: 2 });
      if (request.path === '/sys/balance.php') return answer({ balance: balance.toFixed(2) });
      if (request.path === '/sys/send.php') {
        const message = params.mes ?? '';
        const phone = (params.phones ?? '').replace(/^\+/, '');
        const sender = params.sender ?? null;
        if (message === '' || phone === '') return answer({ error: 'parameters error', error_code: 1 });
        const parts = smsSegments(message).segments;
        const cost = parts * PRICE_PER_PART;
        if (params.cost === '1') return answer({ cost: cost.toFixed(2), cnt: parts });
        sequence += 1;
        const id = String(sequence);
        // errors 3, 6, 7 and 8 carry the message's id: SMSC keeps the refused message and its status
        const fate: FakeSmsMessage['fate'] = !/^\d{10,15}$/.test(phone)
          ? 'bad_number'
          : sender === BLOCKED_SENDER
            ? 'forbidden'
            : fateOf(phone) === 'bad_number'
              ? 'bad_number'
              : cost > balance
                ? 'no_money'
                : fateOf(phone);
        messages.set(id, { id, phone, text: message, sender, fate, parts, cost });
        if (fate === 'bad_number') return answer({ error: 'invalid number', error_code: 7, id: sequence });
        if (fate === 'forbidden') return answer({ error: 'message is denied', error_code: 6, id: sequence });
        if (fate === 'no_money') return answer({ error: 'no money', error_code: 3, id: sequence });
        balance -= cost;
        sent.push({ phone, text: message, sender });
        const accepted: Record<string, unknown> = { id: sequence, cnt: parts };
        if (params.cost === '2' || params.cost === '3') accepted.cost = cost.toFixed(2);
        if (params.cost === '3') accepted.balance = balance.toFixed(2);
        return answer(accepted);
      }
      if (request.path === '/sys/status.php') {
        const message = messages.get(params.id ?? '');
        if (!message || message.phone !== (params.phone ?? '').replace(/^\+/, '')) return answer({ status: -3 });
        const now = new Date();
        return answer({
          status: SMSC_STATUS[message.fate],
          last_date: smscDate(now),
          last_timestamp: Math.floor(now.getTime() / 1000),
        });
      }
      return answer({ error: 'parameters error', error_code: 1 });
    },
  );
  return {
    ...fake,
    sent,
    setBalance: (value) => {
      balance = value;
    },
    balance: () => balance,
  };
}
