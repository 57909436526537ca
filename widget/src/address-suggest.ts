/**
 * The courier address as the buyer types it: the street field suggests the chosen city's
 * streets, the house field that street's houses (the federal address register, through the
 * widget's own route `/widget/v1/api/addresses/suggest`), the flat is typed. A list of
 * suggestions is a listbox under its field: arrows move through it, Enter takes the one
 * marked (or the first), Escape closes it, a click takes one. The house chosen keeps its FIAS
 * id, postcode and coordinates for the selection; typing over a field forgets what was
 * chosen from it. Apart from index.ts because it keeps its own state (timers, the texts last
 * asked, the street and house chosen).
 */
import type { AddressSuggestion, Api } from './api.js';
import { el } from './markup.js';

/** The address the selection carries: the fields typed or chosen, and what the register knows of the house chosen. */
export interface CourierAddress {
  street?: string;
  house?: string;
  /** The block (корпус, строение) of the house chosen: the order's `bulk`. */
  bulk?: string;
  flat?: string;
  zipCode?: string;
  /** The FIAS id of the house chosen from the suggestions. */
  fiasId?: string;
  latitude?: number;
  longitude?: number;
}

/** A FIAS id (a UUID); a locality of ours without one (`gn:…`) restricts nothing. */
const FIAS = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How long typing pauses before the register is asked (ms): each key would be a request otherwise. */
const PAUSE_MS = 180;

let lists = 0;

/**
 * One field with its suggestions: asks `load` after a pause in typing (an answer to an older
 * text is dropped), shows what it answered, and hands the one chosen to `chosen`.
 */
class SuggestedField {
  private timer = 0;
  private asked = 0;
  private shown: AddressSuggestion[] = [];
  private active = -1;
  readonly list: HTMLUListElement;

  constructor(
    readonly input: HTMLInputElement,
    private readonly load: (typed: string) => Promise<AddressSuggestion[]>,
    private readonly label: (suggestion: AddressSuggestion) => string,
    private readonly chosen: (suggestion: AddressSuggestion) => void,
    private readonly typedOver: () => void,
  ) {
    const id = `dw-address-${++lists}`;
    this.list = el('ul', { id, class: 'suggest', role: 'listbox', hidden: '' });
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', id);
    input.addEventListener('input', () => {
      this.typedOver();
      this.typed();
    });
    input.addEventListener('keydown', (event) => this.key(event));
    // a click on a suggestion comes after the blur: the list closes a moment later
    input.addEventListener('blur', () => window.setTimeout(() => this.show([]), 150));
  }

  show(found: AddressSuggestion[]): void {
    this.shown = found;
    this.active = -1;
    this.list.replaceChildren(
      ...found.map((suggestion, index) => {
        const item = el('li', { id: `${this.list.id}-${index}`, role: 'option', 'aria-selected': 'false' });
        item.textContent = this.label(suggestion);
        // mousedown, not click: the field keeps its focus and the list is still there
        item.addEventListener('mousedown', (event) => {
          event.preventDefault();
          this.take(index);
        });
        return item;
      }),
    );
    this.list.hidden = found.length === 0;
    this.input.setAttribute('aria-expanded', String(found.length > 0));
    this.input.removeAttribute('aria-activedescendant');
  }

  private key(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (this.shown.length === 0) return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.mark((this.active + step + this.shown.length) % this.shown.length);
    } else if (event.key === 'Enter') {
      if (this.shown.length === 0) return;
      event.preventDefault();
      this.take(this.active >= 0 ? this.active : 0);
    } else if (event.key === 'Escape' && this.shown.length) {
      event.preventDefault();
      this.show([]);
    }
  }

  private mark(index: number): void {
    this.active = index;
    this.list.querySelectorAll('li').forEach((item, position) => {
      item.setAttribute('aria-selected', String(position === index));
      if (position === index) item.scrollIntoView?.({ block: 'nearest' });
    });
    this.input.setAttribute('aria-activedescendant', `${this.list.id}-${index}`);
  }

  private take(index: number): void {
    const suggestion = this.shown[index];
    this.show([]);
    if (suggestion) this.chosen(suggestion);
  }

  private typed(): void {
    clearTimeout(this.timer);
    const typed = this.input.value.trim();
    if (typed.length < 1) return this.show([]);
    const mine = ++this.asked;
    this.timer = window.setTimeout(async () => {
      try {
        const found = await this.load(typed);
        // the buyer may have gone on to another field meanwhile: no list opens under one left
        if (mine === this.asked && this.input.matches(':focus')) this.show(found);
      } catch {
        // suggestions are a help: a failed one leaves the buyer typing, as without them
        if (mine === this.asked) this.show([]);
      }
    }, PAUSE_MS);
  }
}

/**
 * What the register is asked for a house: the street, then the number marked as a house ("д 1"),
 * so that a bare "1" is not read as a part of the street's name ("1-я Тверская-Ямская").
 */
export function houseQuery(street: string, typed: string): string {
  const house = typed.trim();
  return `${street.trim()}, ${/^\d/.test(house) ? `д ${house}` : house}`;
}

/** The house's number with its block as the buyer reads it: "5 к 2", "12/2 стр 1". */
function houseText(data: AddressSuggestion['data']): string {
  return [data.house, data.blockType && data.block ? `${data.blockType} ${data.block}` : data.block]
    .filter(Boolean)
    .join(' ');
}

export class CourierAddressInput {
  private street: AddressSuggestion | null = null;
  private house: AddressSuggestion | null = null;
  private readonly streetField: SuggestedField;
  private readonly houseField: SuggestedField;

  /** `locality`: the chosen city's FIAS id, which every suggestion stays within. */
  constructor(
    private readonly inputs: { street: HTMLInputElement; house: HTMLInputElement; flat: HTMLInputElement },
    api: Api,
    locality: string | undefined,
  ) {
    const within = locality && FIAS.test(locality) ? { locality } : {};
    this.streetField = new SuggestedField(
      inputs.street,
      (typed) => api.addresses({ query: typed, ...within, fromLevel: 'street', toLevel: 'street', count: 7 }),
      (suggestion) => suggestion.data.streetWithType ?? suggestion.value,
      (suggestion) => {
        this.street = suggestion;
        this.house = null;
        inputs.street.value = suggestion.data.streetWithType ?? suggestion.value;
        inputs.house.value = '';
        inputs.house.focus();
      },
      () => {
        this.street = null;
        this.house = null;
      },
    );
    this.houseField = new SuggestedField(
      inputs.house,
      async (typed) =>
        (
          await api.addresses({
            query: houseQuery(inputs.street.value, typed),
            ...within,
            fromLevel: 'house',
            toLevel: 'house',
            count: 7,
          })
        ).filter((suggestion) => suggestion.data.house),
      (suggestion) => houseText(suggestion.data),
      (suggestion) => {
        this.house = suggestion;
        if (suggestion.data.streetWithType) inputs.street.value = suggestion.data.streetWithType;
        inputs.house.value = houseText(suggestion.data);
        inputs.flat.focus();
      },
      () => {
        this.house = null;
      },
    );
  }

  /** The suggestion lists, each to be put beside its field. */
  lists(): { street: HTMLUListElement; house: HTMLUListElement } {
    return { street: this.streetField.list, house: this.houseField.list };
  }

  /** The address as it stands: a house chosen carries its block, FIAS id, postcode and coordinates. */
  value(): CourierAddress {
    const typed = (input: HTMLInputElement) => input.value.trim() || undefined;
    const flat = typed(this.inputs.flat);
    const house = this.house?.data;
    if (!house) return { street: typed(this.inputs.street), house: typed(this.inputs.house), flat };
    return {
      street: house.streetWithType ?? typed(this.inputs.street),
      house: house.house ?? typed(this.inputs.house),
      // the order's bulk is a корпус: its number alone; a строение keeps its word
      ...(house.block
        ? { bulk: !house.blockType || house.blockType === 'к' ? house.block : `${house.blockType} ${house.block}` }
        : {}),
      flat,
      ...(house.postalCode ? { zipCode: house.postalCode } : {}),
      ...(house.houseFiasId ? { fiasId: house.houseFiasId } : {}),
      ...(house.geoLat !== null && house.geoLon !== null ? { latitude: house.geoLat, longitude: house.geoLon } : {}),
    };
  }
}
