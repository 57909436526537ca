/**
 * SMS.RU (https://sms.ru), a shop's account with its api_id. Written from:
 * - SMS.RU's documentation for programmers: "Отправить СМС сообщение HTTP запросом" (sms.ru/api/send),
 *   "Проверить статус отправленных сообщений" (sms.ru/api/status), "Проверить стоимость" (sms.ru/api/cost),
 *   read through its public mirrors (tele2.sms.ru/api/send, joomla.sms.ru/api/status, megafon.sms.ru/api/cost);
 * - the code table of that documentation as transcribed in the smsru Rust crate's SPEC.md
 *   (github.com/matrizaev/smsru, docs.rs/smsru), with its my/balance decoding (src/transport/account.rs);
 * - recorded answers in WhiteApfel/aiosmsru's tests (tests/test_send_sms.py, tests/test_balance.py) and the
 *   parameters XpycTee/smsru_api sends (smsru_api/template.py).
 *
 * What they agree on: every method takes POST form fields (api_id, json=1; code 210 is "GET where POST is
 * needed"), texts in UTF-8 (212 otherwise). An answer is HTTP 200 with `status` "OK" or "ERROR" and a
 * `status_code`; a refusal of the whole request (the key, the sender, the account) is a top-level ERROR with
 * `status_text`, a refusal of one number is an ERROR inside `sms[phone]`. The send answer carries the message's
 * `sms_id` and the balance after sending, not its cost or its parts: sms/status gives the cost later.
 */
import { countOf, gatewayText, numberOf, postForm } from './gateway-http.js';
import { smsSegments } from './sms-text.js';
import { MessagingError, type SmsDeliveryStatus, type SmsGateway, type SmsMessage, type SmsSent } from './types.js';

export interface SmsRuSettings {
  apiId: string;
  /** https://sms.ru unless a test points elsewhere. */
  baseUrl?: string;
  /** The shop's approved sender name; without it SMS.RU sends from the account's default sender. */
  sender?: string | null;
}

/** Whether trying again can help, our code for the message log, and what it means in plain words. */
interface Refusal {
  permanent: boolean;
  code: string;
  meaning: string;
}

const permanent = (code: string, meaning: string): Refusal => ({ permanent: true, code, meaning });
const temporary = (code: string, meaning: string): Refusal => ({ permanent: false, code, meaning });

/**
 * SMS.RU's refusal codes. A bad key, number, sender or text will be refused again however often
 * it is sent; limits (per day, per number, per minute) and the service's own trouble pass.
 */
const REFUSALS: ReadonlyMap<number, Refusal> = new Map([
  [200, permanent('auth', 'the api_id is wrong')],
  [300, permanent('auth', 'the authorisation token is wrong or expired')],
  [301, permanent('auth', 'the api_id (or login and password) is wrong')],
  [302, permanent('auth', 'the account is not confirmed')],
  // money: nothing changes until the shop tops the account up, so retrying only repeats the refusal
  [201, permanent('no_money', 'not enough money on the SMS.RU account; top it up, then send again')],
  [202, permanent('bad_number', 'the number is wrong or has no route')],
  [207, permanent('bad_number', 'there is no route to this number')],
  [214, permanent('bad_number', 'the number is abroad and the account sends to Russian numbers only')],
  [550, permanent('bad_number', "the number's country is blocked")],
  [209, permanent('stop_list', "the number is in the account's stop list")],
  [215, permanent('stop_list', "the number is in SMS.RU's stop list (its owner complained of spam)")],
  [204, permanent('sender', 'the sender name is not approved for this operator')],
  [221, permanent('sender', 'a letter sender name matching the shop is needed')],
  [216, permanent('forbidden_text', 'the text holds a forbidden word')],
  [217, permanent('forbidden_text', 'a credit advertisement lacks its required phrase')],
  [203, permanent('bad_request', 'the text is empty')],
  [205, permanent('bad_request', 'the text is longer than 8 SMS')],
  [208, permanent('bad_request', 'the send time is wrong')],
  [210, permanent('bad_request', 'GET used where POST is needed')],
  [211, permanent('bad_request', 'no such method')],
  [212, permanent('bad_request', 'the text is not UTF-8')],
  [213, permanent('bad_request', 'too many numbers in one request')],
  [206, temporary('rate_limit', 'the daily sending limit is reached')],
  [230, temporary('rate_limit', 'the daily limit of messages to this number is reached')],
  [231, temporary('rate_limit', 'too many identical messages to this number this minute')],
  [232, temporary('rate_limit', 'too many identical messages to this number today')],
  [233, temporary('rate_limit', 'too many repeated code messages to this number')],
  [220, temporary('server', 'the service is temporarily unavailable')],
  [500, temporary('server', 'error on the server')],
  ...[501, 502, 503, 504, 505, 506, 507, 508].map((code): [number, Refusal] => [
    code,
    temporary('rate_limit', 'an anti-fraud limit is reached'),
  ]),
]);

/** Delivery states of sms/status (codes 100–150). */
const DELIVERY: ReadonlyMap<number, { status: SmsDeliveryStatus; reason?: string }> = new Map([
  [100, { status: 'queued' }],
  [101, { status: 'queued' }], // being handed to the operator
  [102, { status: 'sent' }], // with the operator, on its way
  [103, { status: 'delivered' }],
  [110, { status: 'delivered' }], // read (Viber): delivered and more
  [104, { status: 'failed', reason: 'not delivered: its lifetime ran out' }],
  [105, { status: 'failed', reason: 'not delivered: deleted by the operator' }],
  [106, { status: 'failed', reason: 'not delivered: failure in the phone' }],
  [107, { status: 'failed', reason: 'not delivered: unknown reason' }],
  [108, { status: 'failed', reason: 'not delivered: rejected' }],
  [150, { status: 'failed', reason: 'not delivered: no route to this number' }],
]);

const MESSAGE_NOT_FOUND = -1;

export class SmsRuGateway implements SmsGateway {
  readonly code = 'smsru';
  readonly #apiId: string;
  readonly #baseUrl: string;
  readonly #sender: string | null;

  constructor(settings: SmsRuSettings) {
    this.#apiId = settings.apiId;
    this.#baseUrl = (settings.baseUrl ?? 'https://sms.ru').replace(/\/+$/, '');
    this.#sender = settings.sender ?? null;
  }

  async send(message: SmsMessage, signal: AbortSignal): Promise<SmsSent> {
    const form: Record<string, string> = { to: message.phone, msg: message.text };
    const sender = message.sender ?? this.#sender;
    if (sender) form.from = sender;
    const answer = await this.#call('sms/send', form, signal);
    const entry = entryFor(answer.sms, message.phone);
    if (!entry) throw new MessagingError('SMS.RU answered without the message', false, 'bad_answer');
    if (entry.status !== 'OK') throw this.#refusal(entry);
    if (typeof entry.sms_id !== 'string' || entry.sms_id === '')
      throw new MessagingError('SMS.RU accepted the message without its id', false, 'bad_answer');
    return {
      gatewayId: entry.sms_id,
      // the documented send answer names no count or cost; taken when an answer does carry them
      segments: countOf(entry.sms_count) ?? smsSegments(message.text).segments,
      costRoubles: numberOf(entry.cost),
    };
  }

  async status(
    gatewayId: string,
    _phone: string,
    signal: AbortSignal,
  ): Promise<{ status: SmsDeliveryStatus; reason?: string; costRoubles?: number | null }> {
    const answer = await this.#call('sms/status', { sms_id: gatewayId }, signal);
    const entry = entryFor(answer.sms, gatewayId);
    if (!entry) throw new MessagingError('SMS.RU answered without the message', false, 'bad_answer');
    const code = numberOf(entry.status_code);
    if (code === MESSAGE_NOT_FOUND)
      // asked of the wrong account, or an id SMS.RU never gave: asking again finds nothing either
      throw new MessagingError(`SMS.RU does not know message ${gatewayId}`, true, 'not_found');
    if (entry.status !== 'OK') throw this.#refusal(entry);
    const known = code === null ? undefined : DELIVERY.get(code);
    // the send answer carries no cost: the status does, once the message is priced
    if (known) return { ...known, costRoubles: numberOf(entry.cost) };
    // a state newer than the table: not final as far as we know, and its text says what it is
    const text = gatewayText(entry.status_text, [this.#apiId]);
    return { status: 'queued', reason: `SMS.RU status ${code ?? '?'}${text ? `: ${text}` : ''}` };
  }

  async check(signal: AbortSignal): Promise<{ balanceRoubles: number | null }> {
    const answer = await this.#call('my/balance', {}, signal);
    return { balanceRoubles: numberOf(answer.balance) };
  }

  /** The method's answer once its top level says OK; a MessagingError otherwise. */
  async #call(method: string, form: Record<string, string>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const answer = await postForm(
      {
        gateway: 'SMS.RU',
        url: `${this.#baseUrl}/${method}`,
        form: { api_id: this.#apiId, ...form, json: '1' },
        secrets: [this.#apiId],
      },
      signal,
    );
    if (answer.status !== 'OK') throw this.#refusal(answer);
    return answer;
  }

  #refusal(answer: Record<string, unknown>): MessagingError {
    const code = numberOf(answer.status_code);
    const text = gatewayText(answer.status_text, [this.#apiId]);
    const refusal =
      (code === null ? undefined : REFUSALS.get(code)) ??
      // an unlisted code is likelier a new limit than a verdict; the job's back-off gives up in time
      temporary('unknown', 'a refusal SMS.RU does not document');
    return new MessagingError(
      `SMS.RU refused (${code ?? '?'}): ${refusal.meaning}${text ? ` — ${text}` : ''}`,
      refusal.permanent,
      refusal.code,
    );
  }
}

/** The answer's entry for a phone or an id: keyed by it, or the only one there is. */
function entryFor(entries: unknown, key: string): Record<string, unknown> | null {
  if (!entries || typeof entries !== 'object' || Array.isArray(entries)) return null;
  const byKey = entries as Record<string, unknown>;
  // SMS.RU keys by the number as it understood it; with one message the one entry is ours
  const values = Object.values(byKey);
  const entry = byKey[key] ?? (values.length === 1 ? values[0] : undefined);
  return entry && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>) : null;
}
