/**
 * Refusals in the caller's language. API clients get the English sentences they always got;
 * a caller whose `Accept-Language` prefers Russian (the dashboard and the widget send theirs)
 * gets each code's Russian sentence, and its field errors in Russian where the service's own
 * phrasing is known (every validation message, and the common rules below). The English
 * sentence of a code is its meaning in the catalogue (error-codes.ts); the Russian ones are here.
 */
import negotiate from '@fastify/accept-negotiator';
import type { ErrorCode } from './error-codes.js';
import type { ErrorItem } from './errors.js';

export type Language = 'en' | 'ru';

const LANGUAGES: Language[] = ['en', 'ru'];

/** The language of refusals for this `Accept-Language`: Russian only when asked for before English. */
export function errorLanguage(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage;
  if (!header) return 'en';
  // `ru-RU,ru;q=0.9,en;q=0.8` asks for Russian; the negotiator matches exact tags, so primary subtags are offered too
  const primary = header
    .split(',')
    .map((part) => {
      const [tag, ...rest] = part.trim().split(';');
      return [tag.split('-')[0], ...rest].join(';');
    })
    .join(',');
  return (negotiate(primary, LANGUAGES) as Language | null) ?? 'en';
}

/** Each code's sentence in Russian, for a person reading the dashboard or the widget. */
export const ERROR_SENTENCES_RU: Record<ErrorCode, string> = {
  concurrent_change: 'Эту же запись изменили в тот же момент: отправьте изменение ещё раз.',
  validation_failed: 'Запрос заполнен неверно: поля с ошибками перечислены ниже.',
  bad_request: 'Запрос не удаётся прочитать.',
  bad_url: 'Адрес запроса не удаётся прочитать: в нём неверная %-последовательность.',
  invalid_json: 'Тело запроса — не JSON.',
  json_too_deep: 'JSON в теле запроса вложен глубже 32 уровней.',
  json_sent_as_form:
    'Тело запроса — JSON, а заголовок Content-Type говорит о форме (так отправляет curl -d): отправьте Content-Type: application/json.',
  form_too_large: 'В форме или строке запроса слишком много полей: отправьте большой запрос в JSON.',
  form_too_deep: 'Имя поля формы вложено глубже 12 скобок.',
  invalid_file: 'Загруженный файл — не тот, что ожидается (не base64 или не xlsx).',
  invalid_template: 'В файле xlsx нет колонок шаблона импорта.',
  import_too_large: 'Файл импорта слишком велик: ничего не импортировано.',
  body_too_large: 'Тело запроса больше, чем принимает эта операция.',
  headers_too_large: 'Заголовки запроса слишком велики.',
  path_parameter_too_long: 'Часть адреса запроса слишком длинная.',
  unsupported_media_type: 'Отправьте тело запроса как application/json или application/x-www-form-urlencoded.',
  request_timeout: 'Запрос не пришёл вовремя.',
  route_not_found: 'Такой операции нет.',
  method_not_allowed: 'Этот адрес принимает другие методы: они перечислены в заголовке Allow.',
  not_acceptable: 'Заголовок Accept не называет ни одного формата ответа этой операции.',
  unauthorized: 'Нужна авторизация: войдите или отправьте заголовок Authorization: Bearer <токен>.',
  invalid_token: 'Токен не тот, что принимает эта операция.',
  invalid_credentials: 'Неверный e-mail или пароль.',
  invalid_operator_token: 'Токен оператора неизвестен или выдан не для этого склада.',
  invalid_carrier_secret: 'Неверный X-Carrier-Secret в уведомлении службы доставки.',
  invalid_widget_key: 'Ключ виджета неизвестен или отозван.',
  origin_not_allowed: 'Этот ключ виджета не разрешён на страницах этого сайта: добавьте сайт в настройках магазина.',
  forbidden: 'Недостаточно прав для этого действия.',
  key_scope_missing: 'Этому ключу API не разрешена эта операция.',
  audit_chain_broken: 'Журнал действий нарушен: запись удалена или изменена.',
  key_address_refused: 'Этот ключ API не работает с этого IP-адреса: добавьте адрес в список разрешённых.',
  rate_limited: 'Слишком много запросов: повторите через несколько секунд.',
  session_expired: 'Сеанс завершён: войдите снова.',
  cross_site_refused: 'Вход и выход со страницы другого сайта запрещены: откройте кабинет по его собственному адресу.',
  csrf_token_invalid: 'Сеанс не подтверждён: обновите страницу и войдите снова, если повторится.',
  not_a_login: 'Это действие доступно только сотруднику, вошедшему с паролем.',
  last_owner:
    'Последнего владельца аккаунта нельзя удалить или сделать менеджером: сначала назначьте другого владельца.',
  password_too_weak:
    'Пароль слишком простой: нужно не меньше 10 символов, не один и тот же символ, не e-mail и не из списка самых частых паролей.',
  link_invalid: 'Ссылка неизвестна, уже использована или устарела: попросите новую.',
  signup_closed: 'Регистрация на этом сервере выключена: аккаунты создаёт его администратор.',
  signup_invite_only: 'Регистрация на этом сервере — только по приглашению.',
  second_factor_required: 'Введите код из приложения-аутентификатора (или код восстановления).',
  second_factor_invalid: 'Код неверен или уже использован.',
  second_factor_setup_required:
    'Владельцы аккаунта требуют второй фактор входа: подключите приложение-аутентификатор и войдите с его кодом.',
  second_factor_enforced: 'Владельцы аккаунта требуют второй фактор входа: его нельзя отключить.',
  second_factor_set_up:
    'При входе второй фактор подключается, только когда его требуют владельцы аккаунта и он ещё не подключён.',
  account_set_up: 'В аккаунт уже входит сотрудник: ссылка настройки для него не выдаётся.',
  already_invited: 'Приглашение на этот e-mail уже ждёт ответа: отправьте его снова или отзовите.',
  shop_id_required: 'Операции нужен заголовок Shop-Id.',
  unknown_shop: 'Shop-Id не называет магазин этого аккаунта.',
  invalid_shop_id: 'Shop-Id должен быть номером магазина (целым положительным числом).',
  not_found: 'Не найдено.',
  file_not_ready: 'Файл ещё готовится: запросите его снова через несколько секунд.',
  email_taken: 'Сотрудник с таким e-mail уже есть.',
  duplicate_vendor_code: 'У другого товара магазина уже есть такой артикул.',
  duplicate_binding: 'Товар магазина уже связан с этим товаром маркетплейса.',
  warehouse_in_use: 'Склад отправляет заказы магазина: его нельзя удалить.',
  warehouse_not_editable: 'Это склад фулфилмента сервиса: его меняют только его сотрудники.',
  warehouse_type_immutable: 'Склад не может стать из склада отправителя складом фулфилмента и наоборот.',
  order_state: 'Статус заказа не позволяет это действие.',
  order_changed: 'Заказ тем временем изменился: откройте его снова.',
  insufficient_stock: 'На складе фулфилмента недостаточно товара.',
  no_fulfilment_stock: 'Ни один из товаров ещё не поступал на склад фулфилмента.',
  unknown_company: 'Нет такой службы доставки (или своего способа доставки) в этом аккаунте.',
  unknown_locality: 'Такой населённый пункт не найден в справочнике.',
  unknown_sender_locality: 'Населённый пункт отправителя не найден в справочнике.',
  option_unavailable: 'Служба доставки не может доставить этот заказ туда (или пункт выдачи его не примет).',
  price_changed: 'Цена изменилась с тех пор, как её видел покупатель: новая цена в ответе, ничего не создано.',
  not_own_delivery: 'Заказ доставляет служба доставки: его статусы приходят от неё, а не от магазина.',
  not_simulated: 'Заказ не у встроенной (имитируемой) службы доставки, или имитация выключена.',
  live_contract: 'Песочница недоступна аккаунту с действующим договором со службой доставки.',
  channel_refused:
    'SMS-шлюз или Telegram не приняли данные канала сообщений покупателям, или их не удалось проверить (поле названо в errors[]).',
  no_warehouse: 'У аккаунта нет склада с известным городом: история доставок песочницы начинается в городах складов.',
  period_closed: 'Расчётный период закрыт.',
  overpayment: 'Платёж больше остатка по счёту.',
  pickup_exists: 'Забор с этого склада этой службой на этот день уже заказан.',
  pickup_state: 'Статус забора не позволяет это действие.',
  pickup_changed: 'Забор тем временем изменился: откройте его снова.',
  no_orders: 'В заборе нет заказов, для которых печатаются ярлыки акта.',
  supply_state: 'Статус поставки не позволяет это действие.',
  supply_changed: 'Поставка тем временем изменилась: откройте её снова.',
  inspection_done: 'Возврат уже осмотрен с другими решениями: каждая строка учитывается один раз.',
  partial_buyout_refused:
    'Частичный выкуп здесь невозможен: пункт или оплата заказа его не допускают, либо строки не из этого заказа.',
  selection_not_found: 'Выбор в виджете не найден.',
  selection_expired: 'Выбор в виджете устарел, пока его подтверждали: выберите доставку снова.',
  selection_used: 'По этому выбору в виджете заказ уже создан.',
  preview_selection: 'Этот выбор сделан в предпросмотре виджета в кабинете: из предпросмотра заказ не создаётся.',
  selection_unavailable: 'Выбранный вариант доставки больше недоступен: выберите другой.',
  order_not_made: 'По этому выбору в виджете заказа ещё нет.',
  contacts_missing: 'Виджет не получил контакты получателя для этого выбора.',
  webhook_disabled: 'Вебхук выключен: сначала включите его.',
  cms_callbacks: 'Это обратные вызовы CMS магазина: меняйте их в настройках магазина.',
  carrier_auth_failed: 'Служба доставки отклонила эти учётные данные.',
  carrier_unavailable: 'Служба доставки сейчас не отвечает: попробуйте позже.',
  marketplace_auth_failed: 'Маркетплейс отклонил эти учётные данные.',
  marketplace_unavailable: 'Маркетплейс сейчас не отвечает: попробуйте позже.',
  marketplace_not_connected: 'У аккаунта нет подключения к этому маркетплейсу.',
  marketplace_without_integration: 'Подключение к этому маркетплейсу в сервисе пока не сделано.',
  cms_not_answering: 'CMS магазина не ответила.',
  idempotency_key_reused: 'Этот Idempotency-Key уже приходил с другим телом запроса.',
  idempotency_request_in_progress: 'Первый запрос с этим Idempotency-Key ещё выполняется.',
  idempotency_outcome_unknown:
    'Первый запрос с этим Idempotency-Key выполнен, но его ответ потерян: второй раз он не выполняется.',
  widget_not_built: 'Виджет не собран на этом сервере (npm run build).',
  app_not_built: 'Кабинет не собран на этом сервере (npm run build).',
  shutting_down: 'Сервер останавливается: повторите запрос.',
  not_ready: 'База данных не отвечает.',
  internal_error: 'Что-то пошло не так на нашей стороне: сообщите в поддержку номер журнала (logId).',
};

/** English words of the validation messages (validation-errors.ts) and their Russian. */
const WORDS_RU: Array<[string, string]> = [
  ['a whole number', 'целым числом'],
  ['a number', 'числом'],
  ['a string', 'строкой'],
  ['true or false (1 or 0)', 'true или false (1 или 0)'],
  ['an object', 'объектом'],
  ['an array', 'массивом'],
  ['a date in the form YYYY-MM-DD', 'датой вида ГГГГ-ММ-ДД'],
  [
    'a date and time in RFC 3339 form, e.g. 2026-01-31T10:00:00+03:00',
    'датой и временем по RFC 3339, например 2026-01-31T10:00:00+03:00',
  ],
  ['an e-mail address', 'адресом e-mail'],
  ['an absolute URL', 'абсолютным URL'],
  ['a time in the form HH:MM', 'временем вида ЧЧ:ММ'],
  ['a phone number of digits, with an optional leading +', 'номером телефона из цифр, можно с + в начале'],
  ['null', 'null'],
];

function wordsRu(english: string): string | null {
  const parts = english.split(' or ');
  const translated: string[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    // a word may itself hold " or " ("true or false (1 or 0)"): try the longest run first
    let matched = false;
    for (let end = parts.length; end > index && !matched; end -= 1) {
      const run = parts.slice(index, end).join(' or ');
      const word = WORDS_RU.find(([en]) => en === run);
      if (word) {
        translated.push(word[1]);
        index = end - 1;
        matched = true;
      }
    }
    if (!matched) return null;
  }
  return translated.join(' или ');
}

/** The field messages of the validation and of common rules, as patterns with their Russian. */
const FIELD_MESSAGES_RU: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^is required$/, () => 'обязательное поле'],
  [/^must not be empty$/, () => 'не может быть пустым'],
  [/^must be at least (\S+) characters long$/, (n) => `должно быть не короче ${n} символов`],
  [/^must be at most (\S+) characters long( as JSON)?$/, (n) => `должно быть не длиннее ${n} символов`],
  [/^must be at least (\S+)$/, (n) => `должно быть не меньше ${n}`],
  [/^must be at most (\S+)$/, (n) => `должно быть не больше ${n}`],
  [/^must be greater than (\S+)$/, (n) => `должно быть больше ${n}`],
  [/^must be less than (\S+)$/, (n) => `должно быть меньше ${n}`],
  [/^must hold exactly (\S+) values$/, (n) => `должно содержать ровно ${n} значений`],
  [/^must hold at least (\S+) values$/, (n) => `должно содержать не меньше ${n} значений`],
  [/^must hold at most (\S+) values$/, (n) => `должно содержать не больше ${n} значений`],
  [/^must be one of: (.+)$/, (values) => `должно быть одним из: ${values}`],
  [/^must be a multiple of (\S+)$/, (n) => `должно быть кратно ${n}`],
  [/^must not repeat values$/, () => 'не должно повторять значения'],
  [/^has an invalid value$/, () => 'недопустимое значение'],
  [/^has an invalid format$/, () => 'неверный формат'],
  [/^is nested too deep$/, () => 'вложено слишком глубоко'],
  [/^must not contain a NUL character \(U\+0000\)$/, () => 'не может содержать символ NUL (U+0000)'],
  [/^must be valid Unicode text/, () => 'должно быть корректным текстом Unicode'],
  [/^must not nest objects or arrays more than (\S+) levels deep$/, (n) => `не может быть вложено глубже ${n} уровней`],
  [/^nests more than (\S+) brackets deep$/, (n) => `вложено глубже ${n} скобок`],
  [/^must be an e-mail address$/, () => 'должно быть адресом e-mail'],
  [/^is not the current password$/, () => 'не совпадает с текущим паролем'],
  [/^must not be one character repeated$/, () => 'не может состоять из одного повторённого символа'],
  [/^must not be the e-mail address$/, () => 'не может совпадать с адресом e-mail'],
  [/^is one of the most common passwords$/, () => 'слишком частый пароль: его подбирают первым'],
  [/^is not a code of the authenticator app$/, () => 'не код приложения-аутентификатора'],
  [/^is not a shop of this account$/, () => 'не магазин этого аккаунта'],
  [/^must not be less than (\S+)$/, (other) => `не может быть меньше ${other}`],
  [/^must not be before (\S+)$/, (other) => `не может быть раньше ${other}`],
  [/^must be later than (\S+)$/, (other) => `должно быть позже ${other}`],
  [/^must be a date YYYY-MM-DD$/, () => 'должно быть датой ГГГГ-ММ-ДД'],
  [/^give a percent or an amount$/, () => 'укажите процент или сумму'],
  [/^give a name or a description$/, () => 'укажите название или описание'],
  [
    /^must be a FIAS id/,
    () => 'должно быть идентификатором ФИАС (UUID, например 0c5b2444-70a0-4932-980c-b4dc0d3f02b5)',
  ],
  [
    /^must be a region code \(77\) or a region FIAS id$/,
    () => 'должно быть кодом региона (77) или идентификатором ФИАС региона',
  ],
  [
    /^give address \(one text\) or addresses/,
    () => 'укажите address (один адрес) или addresses (список до 50 адресов)',
  ],
  [/^needs the (.+) scope$/, (names) => `нужна область доступа ${names.replaceAll(' or ', ' или ')}`],
  [/^needs an account token or an owner$/, () => 'нужен токен аккаунта или сеанс владельца'],
  [/^give address or addresses, not both$/, () => 'укажите address или addresses, но не оба'],
];

/** A field error's message in Russian, or as it is when its phrasing is not one the service knows. */
export function fieldMessageRu(message: string): string {
  for (const [pattern, translate] of FIELD_MESSAGES_RU) {
    const match = pattern.exec(message);
    if (match) return translate(...match.slice(1));
  }
  const mustBe = /^must be (.+)$/.exec(message);
  const words = mustBe ? wordsRu(mustBe[1]) : null;
  return words ? `должно быть ${words}` : message;
}

export interface RefusalText {
  code: ErrorCode;
  message: string;
  errors: ErrorItem[];
}

/** The refusal's sentence and field errors in `language` (English: as they were made). */
export function refusalIn(language: Language, refusal: RefusalText): { message: string; errors: ErrorItem[] } {
  if (language === 'en') return { message: refusal.message, errors: refusal.errors };
  const errors = refusal.errors.map((item) => ({ ...item, message: fieldMessageRu(item.message) }));
  const first = errors[0];
  if (refusal.code === 'validation_failed' && first) {
    const more = errors.length > 1 ? ` (и ещё ${errors.length - 1})` : '';
    return { message: `Проверьте поле ${first.field ?? first.id}: ${first.message}${more}.`, errors };
  }
  // a key's refusal names the scope it needs in Russian too
  if (refusal.code === 'key_scope_missing' && first)
    return { message: `${ERROR_SENTENCES_RU[refusal.code].slice(0, -1)}: ${first.message}.`, errors };
  return { message: ERROR_SENTENCES_RU[refusal.code], errors };
}
