/** The widget's words in Russian and English; a shop picks one with `locale`. */
export type Locale = 'ru' | 'en';

const RU = {
  city: 'Город',
  cityPlaceholder: 'Начните вводить город',
  modes: ['', 'Пункт выдачи', 'Курьер', 'Почта'],
  list: 'Список',
  map: 'Карта',
  from: 'от',
  days: (min: number, max: number) => (min === max ? `${min} дн.` : `${min}–${max} дн.`),
  choose: 'Выбрать',
  chosen: 'Выбрано',
  street: 'Улица',
  house: 'Дом, корпус',
  flat: 'Кв./офис',
  interval: 'Время доставки',
  loading: 'Загрузка…',
  nothing: 'Нет вариантов доставки',
  noPoints: 'Нет подходящих пунктов в этой области',
  unreachable: 'Сервис доставки недоступен. Попробуйте позже.',
  needStreet: 'Укажите улицу и дом',
  needContacts: 'Укажите имя и телефон',
  cityNotFound: (name: string) => `Город «${name}» не найден. Проверьте название.`,
  fullName: 'Имя и фамилия',
  phone: 'Телефон',
  // said in full: a bare "карта" reads as "map" beside the map button
  payment: (cash: boolean, card: boolean): string =>
    cash && card ? 'оплата наличными или картой' : cash ? 'оплата наличными' : card ? 'оплата картой' : '',
  fitting: 'примерка',
  soonest: 'доставка за',
  options: 'Варианты доставки',
  arrivesBy: (date: string) => `придёт до ${date}`,
};

const EN: typeof RU = {
  city: 'City',
  cityPlaceholder: 'Start typing a city',
  modes: ['', 'Pickup point', 'Courier', 'Post'],
  list: 'List',
  map: 'Map',
  from: 'from',
  days: (min, max) => (min === max ? `${min} d` : `${min}–${max} d`),
  choose: 'Choose',
  chosen: 'Chosen',
  street: 'Street',
  house: 'House, block',
  flat: 'Flat/office',
  interval: 'Delivery time',
  loading: 'Loading…',
  nothing: 'No delivery options',
  noPoints: 'No suitable points in this area',
  unreachable: 'The delivery service is unreachable. Please try later.',
  needStreet: 'Enter the street and house',
  needContacts: 'Enter your name and phone',
  cityNotFound: (name) => `City “${name}” not found. Check the name.`,
  fullName: 'Full name',
  phone: 'Phone',
  payment: (cash, card) => (cash && card ? 'pay in cash or by card' : cash ? 'pay in cash' : card ? 'pay by card' : ''),
  fitting: 'fitting',
  soonest: 'delivered in',
  options: 'Delivery options',
  arrivesBy: (date) => `arrives by ${date}`,
};

export type Words = typeof RU;

export function wordsFor(locale: Locale | undefined): Words {
  return locale === 'en' ? EN : RU;
}

export function money(value: number, locale: Locale | undefined): string {
  return `${new Intl.NumberFormat(locale === 'en' ? 'en-US' : 'ru-RU', { maximumFractionDigits: 2 }).format(value)} ₽`;
}

/** A day of a promise (`YYYY-MM-DD`) as a buyer reads it: "3 дек." or "3 Dec". */
export function shortDate(date: string, locale: Locale | undefined): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(locale === 'en' ? 'en-GB' : 'ru-RU', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
}
