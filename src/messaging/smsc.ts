/**
 * SMSC (https://smsc.ru), a shop's account with its login and password. Written from:
 * - SMSC's HTTP API documentation: "Отправка SMS-сообщения" with its answer and error codes
 *   (smsc.ru/api/http/send/sms/sms_answer, read through its mirror s1.sm-s.ru/api/http/send/sms/sms_answer),
 *   the status and balance pages (smsc.ru/api/http/status_messages/, .../status_answer/,
 *   smscentre.com/api/http/balance/get_balance — SMSC's English site);
 * - answers recorded from smsc.ru in BulatKarimov/smsc_ru's VCR cassettes (spec/vcr_cassettes: send_sms,
 *   status, balance, unauthorised, invalid_params, rate_limit_exceed) and that gem's error classes per call;
 * - the fmt=3 answer fields NCrashed/servant-smsc-ru decodes (src/Servant/API/SMSC/RU/API.hs: id, cnt,
 *   cost and balance as strings, error, error_code, id on errors 3, 6, 7, 8);
 * - the status code table in glsv's smssender SmscMessageStatus (linked to smsc.ru/api/http/status_messages/statuses/)
 *   and SMSC's own PHP library smsc_api.php (send.php with cost=3 answers id, parts, cost, balance).
 *
 * What they agree on: sys/send.php, sys/status.php and sys/balance.php take GET or POST fields login and psw;
 * fmt=3 asks for JSON; charset=utf-8 for the text (SMSC reads windows-1251 otherwise). Every answer is HTTP
 * 200: a refusal is {"error": "...", "error_code": N}, with the message's "id" for errors 3, 6, 7 and 8.
 */
import { countOf, gatewayText, numberOf, postForm } from './gateway-http.js';
import { smsSegments } from './sms-text.js';
import { MessagingError, type SmsDeliveryStatus, type SmsGateway, type SmsMessage, type SmsSent } from './types.js';

export interface SmscSettings {
  login: string;
  password: string;
  /** https://smsc.ru unless a test points elsewhere (SMSC's reserve server is www2.smsc.ru). */
  baseUrl?: string;
  /** The shop's approved sender name; without it SMSC sends from the account's default sender. */
  sender?: string | null;
}

interface Refusal {
  permanent: boolean;
  code: string;
  meaning: string;
}

/**
 * send.php's error codes. Codes 1–9 are SMSC's; what they mean for a retry is ours: a bad login,
 * number or text stays bad, the IP block and the duplicate guard lift after a while.
 */
const SEND_REFUSALS: ReadonlyMap<number, Refusal> = new Map([
  [1, { permanent: true, code: 'bad_request', meaning: 'the request parameters are wrong' }],
  [2, { permanent: true, code: 'auth', meaning: 'the login or password is wrong' }],
  // money: nothing changes until the shop tops the account up, so retrying only repeats the refusal
  [
    3,
    { permanent: true, code: 'no_money', meaning: 'not enough money on the SMSC account; top it up, then send again' },
  ],
  [4, { permanent: false, code: 'rate_limit', meaning: 'the IP address is blocked for a while after frequent errors' }],
  [5, { permanent: true, code: 'bad_request', meaning: 'the date is in a wrong format' }],
  [6, { permanent: true, code: 'forbidden', meaning: 'the message is forbidden (by its text or its sender name)' }],
  [7, { permanent: true, code: 'bad_number', meaning: 'the number is in a wrong format' }],
  [8, { permanent: true, code: 'bad_number', meaning: 'a message cannot be delivered to this number' }],
  [9, { permanent: false, code: 'rate_limit', meaning: 'too many identical requests this minute' }],
]);

/** status.php and balance.php share the login and rate codes; 5 there is a failed deletion (not used here). */
const QUERY_REFUSALS: ReadonlyMap<number, Refusal> = new Map([
  [1, { permanent: true, code: 'bad_request', meaning: 'the request parameters are wrong' }],
  [2, { permanent: true, code: 'auth', meaning: 'the login or password is wrong' }],
  [4, { permanent: false, code: 'rate_limit', meaning: 'the IP address is blocked for a while after frequent errors' }],
  [9, { permanent: false, code: 'rate_limit', meaning: 'too many identical requests this minute' }],
]);

/** status.php's message states. */
const DELIVERY: ReadonlyMap<number, { status: SmsDeliveryStatus; reason?: string }> = new Map([
  [-1, { status: 'queued' }], // waiting to be sent
  [0, { status: 'sent' }], // handed to the operator
  [1, { status: 'delivered' }],
  [2, { status: 'delivered' }], // read
  [4, { status: 'delivered' }], // its link was opened
  [-2, { status: 'failed', reason: 'stopped before sending' }],
  [3, { status: 'failed', reason: 'expired: not delivered in its lifetime' }],
  [20, { status: 'failed', reason: 'cannot be delivered' }],
  [22, { status: 'failed', reason: 'wrong number' }],
  [23, { status: 'failed', reason: 'forbidden' }],
  [24, { status: 'failed', reason: 'not enough money' }],
  [25, { status: 'failed', reason: 'the number is unreachable' }],
]);

const MESSAGE_NOT_FOUND = -3;

export class SmscGateway implements SmsGateway {
  readonly code = 'smsc';
  readonly #login: string;
  readonly #password: string;
  readonly #baseUrl: string;
  readonly #sender: string | null;

  constructor(settings: SmscSettings) {
    this.#login = settings.login;
    this.#password = settings.password;
    this.#baseUrl = (settings.baseUrl ?? 'https://smsc.ru').replace(/\/+$/, '');
    this.#sender = settings.sender ?? null;
  }

  async send(message: SmsMessage, signal: AbortSignal): Promise<SmsSent> {
    // cost=3: send, and answer the cost and the balance left with the id and the parts
    const form: Record<string, string> = { phones: message.phone, mes: message.text, cost: '3' };
    const sender = message.sender ?? this.#sender;
    if (sender) form.sender = sender;
    const answer = await this.#call('send.php', form, SEND_REFUSALS, signal);
    const id = answer.id;
    if ((typeof id !== 'number' && typeof id !== 'string') || String(id) === '')
      throw new MessagingError('SMSC accepted the message without its id', false, 'bad_answer');
    return {
      gatewayId: String(id),
      segments: countOf(answer.cnt) ?? smsSegments(message.text).segments,
      costRoubles: numberOf(answer.cost),
    };
  }

  async status(
    gatewayId: string,
    phone: string,
    signal: AbortSignal,
  ): Promise<{ status: SmsDeliveryStatus; reason?: string }> {
    // SMSC finds a message by its id and number together
    const answer = await this.#call('status.php', { phone, id: gatewayId }, QUERY_REFUSALS, signal);
    const code = numberOf(answer.status);
    if (code === MESSAGE_NOT_FOUND)
      throw new MessagingError(`SMSC does not know message ${gatewayId} to this number`, true, 'not_found');
    const known = code === null ? undefined : DELIVERY.get(code);
    if (known) return { ...known };
    // a state newer than the table: not final as far as we know
    return { status: 'queued', reason: `SMSC status ${code ?? '?'}` };
  }

  async check(signal: AbortSignal): Promise<{ balanceRoubles: number | null }> {
    const answer = await this.#call('balance.php', {}, QUERY_REFUSALS, signal);
    return { balanceRoubles: numberOf(answer.balance) };
  }

  /** The answer when it is not a refusal; the refusal as a MessagingError otherwise. */
  async #call(
    script: string,
    form: Record<string, string>,
    refusals: ReadonlyMap<number, Refusal>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const secrets = [this.#login, this.#password];
    const answer = await postForm(
      {
        gateway: 'SMSC',
        url: `${this.#baseUrl}/sys/${script}`,
        form: { login: this.#login, psw: this.#password, ...form, fmt: '3', charset: 'utf-8' },
        secrets,
      },
      signal,
    );
    if (answer.error_code === undefined && answer.error === undefined) return answer;
    const code = numberOf(answer.error_code);
    const text = gatewayText(answer.error, secrets);
    const refusal = (code === null ? undefined : refusals.get(code)) ?? {
      // an unlisted code is likelier a passing condition than a verdict; the job's back-off gives up in time
      permanent: false,
      code: 'unknown',
      meaning: 'a refusal SMSC does not document',
    };
    throw new MessagingError(
      `SMSC refused (${code ?? '?'}): ${refusal.meaning}${text ? ` — ${text}` : ''}`,
      refusal.permanent,
      refusal.code,
    );
  }
}
