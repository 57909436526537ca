/**
 * The checkout widget: `DeliveryWidget.mount('#el', options)` renders the buyer's choice of a
 * pickup point, a courier slot or the post, at the shop's own prices, in a shadow root (the
 * shop's styles and ours never meet). The choice becomes a selection token the shop's server
 * confirms. Framework-free; the map (Leaflet) is a separate file loaded only when shown.
 * This file is the flow (city, quotes, tabs, points, the choice); how its pieces look is
 * markup.ts, what a page may pass to it options.ts, the city search search.ts, the list and
 * each tab's choice choice-list.ts.
 */
import { CourierAddressInput, type CourierAddress } from './address-suggest.js';
import { Api, WidgetError, type Locality, type Option, type Point, type Selection } from './api.js';
import { ChoiceList, rowKey } from './choice-list.js';
import { money, wordsFor, type Words } from './i18n.js';
import type { MapView } from './map.js';
import { addressFields, buildFrame, cardLine, el, listItem, modeTab, type FrameParts, type Look } from './markup.js';
import type { MapOptions, WidgetEvent, WidgetOptions } from './options.js';
import { CitySearch, type LocationAsked } from './search.js';

export type { MapOptions, WidgetEvent, WidgetOptions } from './options.js';
type Handler = (detail: unknown) => void;

const SCRIPT_ORIGIN = (() => {
  const script = document.currentScript as HTMLScriptElement | null;
  return script?.src ? new URL(script.src).origin : location.origin;
})();
const SCRIPT_BASE = (() => {
  const script = document.currentScript as HTMLScriptElement | null;
  return script?.src ? new URL('.', script.src).href : `${location.origin}/widget/v1/`;
})();
/** Set by the build: the content-hashed file of the map. */
declare const MAP_FILE: string;

/** The tabs that show points: pickup points and lockers (1), post offices (3). */
const POINT_MODES = [1, 3];

/** About a district of a city around its centre: the first view of the points. */
const CITY_SPAN = { lon: 0.18, lat: 0.09 };
const CITY_ZOOM = 13;

export class Widget {
  private readonly handlers = new Map<WidgetEvent, Set<Handler>>();
  private readonly root: ShadowRoot;
  private readonly api: Api;
  private readonly words: Words;
  private options: WidgetOptions;
  private city: Locality | null = null;
  private quotes: Option[] = [];
  private mode = 0;
  private points: Point[] = [];
  private view: 'list' | 'map' = 'list';
  private map: MapView | null = null;
  /** The courier tab's address fields while they are shown. */
  private courierAddress: CourierAddressInput | null = null;
  private destroyed = false;
  private pointsAsked = 0;
  /** Counts the cities asked: an answer for a city the buyer has since left is dropped. */
  private quotesAsked = 0;
  /** The list and each tab's own choice: switching tabs shows that tab's, or none. */
  private readonly choices: ChoiceList;
  private readonly search: CitySearch;
  private readonly parts: FrameParts;

  constructor(
    private readonly host: HTMLElement,
    options: WidgetOptions,
  ) {
    if (!options?.publicKey) throw new Error('DeliveryWidget: publicKey is required');
    this.options = { ...options };
    this.words = wordsFor(options.locale);
    this.api = new Api(
      (options.apiUrl ?? SCRIPT_ORIGIN).replace(/\/$/, ''),
      options.publicKey,
      options.locale === 'en' ? 'en' : 'ru',
    );
    this.root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
    this.root.replaceChildren();
    this.parts = buildFrame(this.root, this.words, options);
    this.search = new CitySearch(this.parts.input, this.parts.suggest, this.api, {
      chosen: (city) => void this.chooseCity(city),
      notFound: (typed) => this.cityNotFound(typed),
      failed: (error) => this.fail(error),
    });
    this.choices = new ChoiceList(this.parts.list);
    if (this.mapOptions()) {
      for (const view of ['list', 'map'] as const) {
        const button = el(
          'button',
          { type: 'button', 'aria-pressed': String(view === 'list'), 'data-view': view },
          view === 'list' ? this.words.list : this.words.map,
        );
        button.addEventListener('click', () => this.showView(view));
        this.parts.views.append(button);
      }
    }
    queueMicrotask(() => {
      this.emit('ready', {});
      const start = this.options.defaultLocation;
      if (start) void this.setLocation(start);
    });
  }

  // ---------------------------------------------------------------- public methods

  on(event: WidgetEvent, handler: Handler): this {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler);
    return this;
  }

  off(event: WidgetEvent, handler: Handler): this {
    this.handlers.get(event)?.delete(handler);
    return this;
  }

  /** New cart or options (products, cod, declaredValue, modes, segment, paymentOnDelivery): prices are asked again. */
  update(options: Partial<WidgetOptions>): void {
    this.options = { ...this.options, ...options };
    if (this.city) void this.loadQuotes();
  }

  /** Finds a city by name (and region) or fias, and shows its options. */
  async setLocation(location: LocationAsked): Promise<void> {
    try {
      const city = await this.search.find(location);
      if (!city) {
        this.cityNotFound(location.name ?? '');
        // the page's own call named no known city: its error handler hears it too
        this.emit('error', {
          code: 'unknown_locality',
          message: `${location.name} not found`,
          status: 400,
          errors: [],
        });
        return;
      }
      await this.chooseCity(city);
    } catch (error) {
      this.fail(error);
    }
  }

  /** Chooses a point by id (one of those shown): a pickup point or locker, or on the post tab a post office. */
  async selectPoint(id: number): Promise<Selection | null> {
    const point = this.points.find((item) => item.id === id);
    if (!point || !this.city) return null;
    return this.choose({ mode: this.mode === 3 ? 3 : 1, companyId: point.companyId, pointId: point.id });
  }

  /**
   * Shows the widget again after close(), with what it held (city, offers, choices); emits
   * `open`. The widget is inline and starts shown: a page that wants it hidden at first calls
   * close() right after mount.
   */
  open(): void {
    if (!this.parts.frame.hidden) return;
    this.parts.frame.hidden = false;
    // the map measured nothing while hidden
    if (this.view === 'map') this.map?.resize();
    this.emit('open', {});
  }

  /** Hides the widget (the host element stays on the page, empty); emits `close`. The choices stay. */
  close(): void {
    if (this.parts.frame.hidden) return;
    this.parts.frame.hidden = true;
    this.emit('close', {});
  }

  destroy(): void {
    this.destroyed = true;
    this.choices.disconnect();
    this.map?.destroy();
    this.root.replaceChildren();
    if ('adoptedStyleSheets' in this.root) this.root.adoptedStyleSheets = [];
    this.handlers.clear();
  }

  // ---------------------------------------------------------------- flow

  private emit(event: WidgetEvent, detail: unknown): void {
    if (this.destroyed) return;
    for (const handler of this.handlers.get(event) ?? []) {
      try {
        handler(detail);
      } catch (error) {
        // a shop's handler failing must not stop the widget
        console.error(error);
      }
    }
    this.host.dispatchEvent(new CustomEvent(`deliverywidget:${event}`, { detail, bubbles: true, composed: true }));
  }

  private fail(error: unknown): void {
    const known = error instanceof WidgetError ? error : new WidgetError('widget_error', String(error), 0);
    this.setStatus(known.code === 'unreachable' ? this.words.unreachable : known.message, true);
    this.emit('error', { code: known.code, message: known.message, status: known.status, errors: known.errors });
  }

  private setStatus(text: string, error = false): void {
    this.parts.status.textContent = text;
    this.parts.status.classList.toggle('error', error);
  }

  private async chooseCity(city: Locality): Promise<void> {
    this.search.show([]);
    this.parts.input.value = city.name;
    this.city = city;
    await this.loadQuotes();
  }

  /**
   * A name the service does not know: it is said, and nothing of the city before stays to be
   * chosen under the name typed (its offers, its points, the choices made there).
   */
  private cityNotFound(name: string): void {
    this.search.show([]);
    this.city = null;
    this.quotes = [];
    this.points = [];
    this.choices.clear();
    // answers still on their way are the city's before
    this.quotesAsked++;
    this.pointsAsked++;
    this.parts.tabs.replaceChildren();
    this.parts.views.hidden = true;
    this.parts.mapBox.hidden = true;
    this.parts.extra.replaceChildren();
    this.courierAddress = null;
    this.parts.list.hidden = false;
    this.fillList([]);
    this.setStatus(this.words.cityNotFound(name), true);
    this.emit('city-not-found', { name });
  }

  private cart(): Record<string, unknown> {
    const { products, declaredValue, cod, segment, paymentOnDelivery } = this.options;
    return {
      city: { fias: this.city?.fias, name: this.city?.name },
      products,
      ...(declaredValue !== undefined ? { declaredValue } : {}),
      cod: cod ?? false,
      // what the shop's shipping rules read of the buyer: the selection, and the order made of it, keep them
      ...(segment ? { segment } : {}),
      ...(paymentOnDelivery ? { paymentOnDelivery } : {}),
    };
  }

  private async loadQuotes(): Promise<void> {
    const mine = ++this.quotesAsked;
    // new prices (another city or cart): a choice made at the old ones is not shown as made
    this.choices.clear();
    this.setStatus(this.words.loading);
    try {
      const answer = await this.api.quotes({
        ...this.cart(),
        ...(this.options.modes ? { modes: this.options.modes } : {}),
      });
      if (this.destroyed || mine !== this.quotesAsked) return;
      this.city = { ...answer.city };
      this.quotes = answer.options;
      this.emit('quote', { city: answer.city, options: answer.options });
      if (this.options.kind === 'card') return this.renderCard();
      this.renderTabs();
      const modes = this.availableModes();
      if (modes.length === 0) {
        this.setStatus(this.words.nothing);
        this.fillList([]);
        return;
      }
      await this.showMode(modes.includes(this.mode) ? this.mode : modes[0]);
    } catch (error) {
      if (mine !== this.quotesAsked) return;
      // a fias the directory does not hold (a page's setLocation): said as a name typed would be
      if (error instanceof WidgetError && error.code === 'unknown_locality')
        return this.cityNotFound(this.city?.name || this.parts.input.value);
      this.fail(error);
    }
  }

  /** The product card: per way of delivery, the cheapest price and the soonest days; no list, no map. */
  private renderCard(): void {
    const w = this.words;
    this.parts.tabs.replaceChildren();
    this.parts.views.hidden = true;
    this.parts.mapBox.hidden = true;
    this.parts.list.hidden = false;
    const modes = this.availableModes();
    this.setStatus(modes.length ? '' : w.nothing);
    this.fillList(
      modes.map((mode) =>
        cardLine(
          this.look(),
          mode,
          this.quotes.filter((option) => option.mode === mode),
        ),
      ),
    );
  }

  private availableModes(): number[] {
    return [1, 2, 3].filter((mode) => this.quotes.some((option) => option.mode === mode));
  }

  private renderTabs(): void {
    this.parts.tabs.replaceChildren(
      ...this.availableModes().map((mode) => {
        const cheapest = Math.min(
          ...this.quotes.filter((option) => option.mode === mode).map((option) => option.totalPrice),
        );
        return modeTab(this.look(), mode, cheapest, mode === this.mode, () => void this.showMode(mode));
      }),
    );
  }

  private async showMode(mode: number): Promise<void> {
    this.mode = mode;
    for (const button of this.parts.tabs.querySelectorAll('button'))
      button.setAttribute('aria-pressed', String(button.dataset.mode === String(mode)));
    this.parts.views.hidden = !POINT_MODES.includes(mode) || !this.mapOptions();
    this.parts.extra.replaceChildren();
    this.courierAddress = null;
    // this tab's own choice, or none: a point chosen on the pickup tab is not the courier's
    this.showChoice();
    this.emit('change', { mode, city: this.city, selection: this.choices.of(mode)?.selection ?? null });
    if (POINT_MODES.includes(mode)) {
      if (this.view === 'map') this.showView('map');
      else this.showView('list');
      this.points = [];
      await this.loadPoints(this.cityView(), CITY_ZOOM, true);
      return;
    }
    this.parts.mapBox.hidden = true;
    this.parts.list.hidden = false;
    if (mode === 2 && this.options.kind !== 'info') this.renderAddress();
    this.renderOptions(mode);
  }

  private cityView(): string {
    const city = this.city as Locality;
    return [
      city.longitude - CITY_SPAN.lon,
      city.latitude - CITY_SPAN.lat,
      city.longitude + CITY_SPAN.lon,
      city.latitude + CITY_SPAN.lat,
    ]
      .map((value) => value.toFixed(5))
      .join(',');
  }

  /** Points of a viewport that take this cart; the map asks again as it moves. */
  async loadPoints(bbox: string, zoom: number, firstOfTab = false): Promise<void> {
    const mine = ++this.pointsAsked;
    const weight = this.options.products.reduce(
      (sum, product) => sum + (product.weight ?? 0) * (product.count ?? 1),
      0,
    );
    const mode = this.mode;
    const companyIds = [
      ...new Set(
        this.quotes
          .filter((option) => option.mode === mode && typeof option.companyId === 'number')
          .map((option) => option.companyId),
      ),
    ];
    const query = new URLSearchParams({
      bbox,
      zoom: String(zoom),
      ...(weight > 0 ? { weight: String(Math.round(weight * 1000) / 1000) } : {}),
      ...(this.options.cod ? { cod: '1' } : {}),
    });
    for (const id of companyIds) query.append('companyIds', String(id));
    // the pickup tab shows points and lockers, the post tab the post offices where a parcel waits
    for (const type of mode === 3 ? [3] : [1, 2]) query.append('types', String(type));
    try {
      const answer = await this.api.points(query.toString());
      if (mine !== this.pointsAsked || this.destroyed || mode !== this.mode) return;
      // a post company with no office listed here still delivers to the locality: its line, priced there
      if (mode === 3 && firstOfTab && answer.points.length === 0 && answer.clusters.length === 0) {
        this.showChoice();
        this.parts.views.hidden = true;
        this.parts.mapBox.hidden = true;
        this.parts.list.hidden = false;
        return this.renderOptions(3);
      }
      if (answer.points.length || answer.clusters.length === 0) this.points = answer.points;
      if (answer.points.length || answer.clusters.length) this.showChoice();
      else this.setStatus(this.words.noPoints);
      if (this.view === 'list') this.renderPoints();
      this.map?.show(answer.points, answer.clusters, (point) => this.priceOf(point));
    } catch (error) {
      this.fail(error);
    }
  }

  private priceOf(point: Point): Option | undefined {
    return this.quotes.find((option) => option.mode === this.mode && option.companyId === point.companyId);
  }

  private renderPoints(): void {
    const items = this.points
      .map((point) => ({ point, option: this.priceOf(point) }))
      .filter((entry): entry is { point: Point; option: Option } => entry.option !== undefined)
      .sort((a, b) => a.option.totalPrice - b.option.totalPrice)
      .slice(0, 100);
    this.fillList(
      items.map(({ point, option }) => {
        const extras = [
          this.words.payment(point.cashPaymentAvailable, point.cardPaymentAvailable),
          point.fittingAvailable ? this.words.fitting : '',
        ]
          .filter(Boolean)
          .join(', ');
        return listItem(
          this.look(),
          point.name.includes(option.companyName) ? point.name : `${option.companyName} · ${point.name}`,
          `${point.address}${extras ? ` · ${extras}` : ''}`,
          option,
          { 'data-point': String(point.id) },
          () => void this.selectPoint(point.id),
        );
      }),
    );
  }

  private renderOptions(mode: number): void {
    const options = this.quotes.filter((option) => option.mode === mode);
    this.fillList(
      options.map((option) =>
        listItem(
          this.look(),
          option.companyName,
          option.tariffName ?? '',
          option,
          { 'data-company': String(option.companyId) },
          () => {
            const address = this.address();
            if (mode === 2 && !address.street) {
              this.setStatus(this.words.needStreet, true);
              return;
            }
            const interval = (this.parts.extra.querySelector('select') as HTMLSelectElement | null)?.value;
            void this.choose({
              mode,
              companyId: option.companyId,
              ...(address.street ? { address } : {}),
              ...(mode === 2
                ? { courier: { date: option.deliveryDate.to, ...(interval ? { intervalId: Number(interval) } : {}) } }
                : {}),
            });
          },
        ),
      ),
    );
  }

  /** The list's new rows, this tab's choice marked among them. */
  private fillList(items: HTMLLIElement[]): void {
    this.choices.fill(items, this.mode);
  }

  /** The status line of the tab shown: its own choice, or nothing. */
  private showChoice(): void {
    this.setStatus(this.choices.of(this.mode)?.summary ?? '');
  }

  /** How the list's and tabs' pieces are written now: a page may change its locale or kind with update(). */
  private look(): Look {
    return { words: this.words, locale: this.options.locale, kind: this.options.kind };
  }

  private renderAddress(): void {
    const courier = this.quotes.find((option) => option.mode === 2 && option.courierIntervals?.length);
    const { elements, inputs } = addressFields(this.words, courier);
    this.courierAddress = new CourierAddressInput(inputs, this.api, this.city?.fias);
    const lists = this.courierAddress.lists();
    inputs.street.after(lists.street);
    inputs.house.after(lists.house);
    this.parts.extra.append(...elements);
  }

  /** The courier tab's address: typed, or a house chosen from the suggestions with its FIAS id, postcode and coordinates. */
  private address(): CourierAddress {
    return this.courierAddress?.value() ?? {};
  }

  /** The contacts typed (askContacts), or null when a required one is missing. */
  contacts(): { fullName?: string; phone?: string; email?: string } | null {
    const value = (name: string) =>
      (this.root.querySelector(`input[name="${name}"]`) as HTMLInputElement | null)?.value.trim() || undefined;
    return { fullName: value('fullName'), phone: value('phone'), email: value('email') };
  }

  private async choose(choice: Record<string, unknown>): Promise<Selection | null> {
    if (this.options.kind === 'info' || this.options.kind === 'card') return null;
    let contacts: Record<string, string | undefined> | undefined;
    if (this.options.askContacts) {
      contacts = this.contacts() ?? {};
      if (!contacts.fullName || !contacts.phone) {
        this.setStatus(this.words.needContacts, true);
        return null;
      }
    }
    const asked = this.quotesAsked;
    try {
      const selection = await this.api.select({ ...this.cart(), ...choice, ...(contacts ? { contacts } : {}) });
      // the buyer has since gone to another city: this choice is not one of its offers
      if (asked !== this.quotesAsked || this.destroyed) return null;
      const mode = choice.mode as number;
      this.choices.set(mode, {
        row: rowKey({ point: choice.pointId, company: choice.companyId }),
        summary: `${this.words.chosen}: ${selection.quote.companyName}${selection.quote.point ? `, ${selection.quote.point.address}` : ''} — ${money(selection.quote.totalPrice, this.options.locale)}`,
        selection,
      });
      if (mode === this.mode) {
        this.choices.markShown(this.mode);
        this.showChoice();
      }
      // what the buyer chose, beside the priced answer: address, slot, contacts
      this.emit('select', { ...selection, choice: { ...choice, ...(contacts ? { contacts } : {}) } });
      return selection;
    } catch (error) {
      this.fail(error);
      return null;
    }
  }

  // ---------------------------------------------------------------- the map

  private mapOptions(): MapOptions | null {
    const map = this.options.map;
    return map && map !== 'none' && map.tiles ? map : null;
  }

  private showView(view: 'list' | 'map'): void {
    this.view = view;
    for (const button of this.parts.views.querySelectorAll('button'))
      button.setAttribute('aria-pressed', String(button.dataset.view === view));
    this.parts.list.hidden = view === 'map';
    this.parts.mapBox.hidden = view !== 'map';
    if (view === 'list') return this.renderPoints();
    void this.openMap();
  }

  private async openMap(): Promise<void> {
    const options = this.mapOptions();
    if (!options || !this.city) return;
    try {
      if (!this.map) {
        const module = (await import(/* @vite-ignore */ `${SCRIPT_BASE}${MAP_FILE}`)) as typeof import('./map.js');
        this.map = module.createMap(
          this.parts.mapBox,
          this.root,
          { ...options, styleNonce: this.options.styleNonce },
          {
            moved: (bbox, zoom) => void this.loadPoints(bbox, zoom),
            chosen: (id) => void this.selectPoint(id),
          },
        );
      }
      this.map.center(this.city.latitude, this.city.longitude, CITY_ZOOM);
    } catch (error) {
      this.fail(error);
    }
  }
}

/** The global a shop's page uses. */
export const DeliveryWidget = {
  version: '1',
  mount(target: string | HTMLElement, options: WidgetOptions): Widget {
    const host = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
    if (!host) throw new Error(`DeliveryWidget: ${String(target)} is not on the page`);
    return new Widget(host, options);
  },
};

(window as unknown as { DeliveryWidget: typeof DeliveryWidget }).DeliveryWidget = DeliveryWidget;
