/**
 * The widget's markup: the frame built once per mount in its shadow root (our styles, the
 * contacts asked, the city search, the tabs, the list or map switch, the status line, the
 * list and the map's box) and the pieces its list and tabs are made of (a city suggested, a
 * tab with its cheapest price, an option or a point to choose, a product card's line, the
 * courier's address fields). It keeps no state and asks the service nothing: index.ts decides
 * what is shown and when, this file how it looks, so the flow reads without the DOM calls.
 */
import type { Locality, Option } from './api.js';
import { money, shortDate, type Locale, type Words } from './i18n.js';
import type { WidgetOptions } from './options.js';
import { adoptStyles } from './adopt-styles.js';
import styles from './styles.css';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The parts of the frame that the flow fills, shows and hides. */
export interface FrameParts {
  /** The whole widget inside the shadow root: hidden by close(), shown by open(). */
  frame: HTMLDivElement;
  input: HTMLInputElement;
  suggest: HTMLUListElement;
  tabs: HTMLDivElement;
  views: HTMLDivElement;
  status: HTMLDivElement;
  extra: HTMLDivElement;
  list: HTMLUListElement;
  mapBox: HTMLDivElement;
}

/** How the pieces are written at the moment: the words, the page's locale (prices), the kind of page. */
export interface Look {
  words: Words;
  locale: Locale | undefined;
  kind: WidgetOptions['kind'];
}

/** Builds the frame into the (emptied) shadow root. */
export function buildFrame(root: ShadowRoot, w: Words, options: WidgetOptions): FrameParts {
  // a mount into a root used before starts from no sheet of ours
  if ('adoptedStyleSheets' in root) root.adoptedStyleSheets = [];
  adoptStyles(root, styles, options.styleNonce);
  const box = el('div', { class: 'w', part: 'widget' });
  const search = el('div', { class: 'search' });
  const inputId = 'dw-city';
  const input = el('input', {
    id: inputId,
    type: 'search',
    autocomplete: 'off',
    placeholder: w.cityPlaceholder,
    role: 'combobox',
    'aria-expanded': 'false',
    'aria-controls': 'dw-suggest',
  });
  const suggest = el('ul', { id: 'dw-suggest', class: 'suggest', role: 'listbox', hidden: '' });
  search.append(el('label', { for: inputId }, w.city), input, suggest);
  const contacts = el('div', { class: 'contacts', hidden: '' });
  if (options.askContacts) {
    contacts.hidden = false;
    for (const [name, label, type] of [
      ['fullName', w.fullName, 'text'],
      ['phone', w.phone, 'tel'],
      ['email', 'E-mail', 'email'],
    ] as const) {
      const input = el('input', {
        name,
        type,
        placeholder: label,
        'aria-label': label,
        autocomplete: name === 'fullName' ? 'name' : name === 'phone' ? 'tel' : 'email',
      });
      input.value = options.contacts?.[name] ?? '';
      contacts.append(input);
    }
  }
  const tabs = el('div', { class: 'tabs', role: 'group' });
  const views = el('div', { class: 'views', role: 'group', hidden: '' });
  const status = el('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
  const extra = el('div');
  // a checkout's list is a choice (listbox of options); an information page's or a card's is a plain list
  const choosing = (options.kind ?? 'checkout') === 'checkout';
  const list = el('ul', { class: 'list', ...(choosing ? { role: 'listbox' } : {}), 'aria-label': w.options });
  const mapBox = el('div', { class: 'map', hidden: '' });
  box.append(contacts, search, tabs, views, status, extra, list, mapBox);
  root.append(box);
  return { frame: box, input, suggest, tabs, views, status, extra, list, mapBox };
}

/** A city the search found. */
export function suggestion(city: Locality, onChoose: () => void): HTMLLIElement {
  const item = el('li', { role: 'option' });
  item.append(
    el('b', {}, city.name),
    document.createTextNode(' '),
    el('span', { class: 'muted' }, `${city.type}, ${city.region}`),
  );
  item.addEventListener('click', onChoose);
  return item;
}

/** A tab of a way of delivery, with its cheapest price. */
export function modeTab(
  look: Look,
  mode: number,
  cheapest: number,
  pressed: boolean,
  onClick: () => void,
): HTMLButtonElement {
  const w = look.words;
  const button = el(
    'button',
    { type: 'button', 'aria-pressed': String(pressed), 'data-mode': String(mode) },
    w.modes[mode],
  );
  button.append(el('small', {}, `${w.from} ${money(cheapest, look.locale)}`));
  button.addEventListener('click', onClick);
  return button;
}

/** A product card's line of a way of delivery: the cheapest price and the soonest days of its options. */
export function cardLine(look: Look, mode: number, options: Option[]): HTMLLIElement {
  const w = look.words;
  const cheapest = Math.min(...options.map((option) => option.totalPrice));
  const soonest = Math.min(...options.map((option) => option.deliveryDays.min));
  const line = el('li', { class: 'item card', 'data-mode': String(mode) });
  const text = el('div');
  text.append(el('b', {}, w.modes[mode]), el('span', { class: 'muted' }, `${w.soonest} ${w.days(soonest, soonest)}`));
  line.append(text, el('span', { class: 'price' }, `${w.from} ${money(cheapest, look.locale)}`));
  return line;
}

/** A line of the list: an option or a point, to choose on a checkout, only shown on an information page. */
export function listItem(
  look: Look,
  title: string,
  subtitle: string,
  option: Option,
  attributes: Record<string, string>,
  onChoose: () => void,
): HTMLLIElement {
  const text = el('div');
  const details = el('span', { class: 'muted' }, `${subtitle}${subtitle ? ' · ' : ''}`);
  // the days kept on one line: "4–6 дн." broken after the dash reads as two numbers
  details.append(el('span', { class: 'days' }, look.words.days(option.deliveryDays.min, option.deliveryDays.max)));
  // the date learnt from this service's deliveries of the route: what the buyer plans by
  if (option.promise)
    details.append(
      ' · ',
      el('span', { class: 'days arrives' }, look.words.arrivesBy(shortDate(option.promise.byDate, look.locale))),
    );
  text.append(el('b', {}, title), details);
  // an information page lists what there is: nothing to choose
  if (look.kind === 'info') {
    const line = el('li', { class: 'item info', ...attributes });
    line.append(text, el('span', { class: 'price' }, money(option.totalPrice, look.locale)));
    return line;
  }
  const item = el('li', { class: 'item', role: 'option', tabindex: '0', 'aria-selected': 'false', ...attributes });
  item.append(text, el('span', { class: 'price' }, money(option.totalPrice, look.locale)));
  item.addEventListener('click', onChoose);
  item.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onChoose();
    }
  });
  return item;
}

/** The courier's address fields (street, house, flat: each in a box its suggestions open under), and the choice of a time slot when the courier option has slots. */
export function addressFields(
  w: Words,
  courier: Option | undefined,
): { elements: HTMLElement[]; inputs: Record<'street' | 'house' | 'flat', HTMLInputElement> } {
  const row = el('div', { class: 'address' });
  const inputs = {} as Record<'street' | 'house' | 'flat', HTMLInputElement>;
  for (const [name, label] of [
    ['street', w.street],
    ['house', w.house],
    ['flat', w.flat],
  ] as const) {
    const box = el('div', { class: 'field' });
    inputs[name] = el('input', { name, placeholder: label, 'aria-label': label, autocomplete: 'off' });
    box.append(inputs[name]);
    row.append(box);
  }
  // the box the row's width is asked of (styles.css: a narrow one puts the street on a row of its own)
  const holder = el('div', { class: 'address-box' });
  holder.append(row);
  if (!courier?.courierIntervals) return { elements: [holder], inputs };
  const select = el('select', { 'aria-label': w.interval });
  for (const interval of courier.courierIntervals) {
    const option = el('option', { value: String(interval.id) }, `${interval.timeFrom}–${interval.timeTo}`);
    if (interval.isDefault) option.selected = true;
    select.append(option);
  }
  return { elements: [holder, select], inputs };
}
