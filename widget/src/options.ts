/**
 * What a shop's page passes to `DeliveryWidget.mount` and the events it may listen to: the
 * widget's public contract. Apart from index.ts so that the widget's pieces (markup.ts) can
 * name it without importing the widget itself; index.ts exports it again, where the map, the
 * widget-era wrapper and the pages' own code find it.
 */
import type { Product } from './api.js';
import type { Locale } from './i18n.js';

export interface MapOptions {
  /** Set by the widget from its own options: the nonce of a fallback <style> element. */
  styleNonce?: string;
  /** A tile URL template, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png: nothing is asked of any third party without one. */
  tiles: string;
  attribution: string;
  maxZoom?: number;
}

export interface WidgetOptions {
  publicKey: string;
  /**
   * 'checkout' (default): the buyer chooses, and `select` gives the token the shop confirms.
   * 'info': a "where can I collect" page: the same prices and points, nothing to choose.
   * 'card': a product card's line per way of delivery: the cheapest price and the soonest days.
   */
  kind?: 'checkout' | 'info' | 'card';
  locale?: Locale;
  products: Product[];
  declaredValue?: number;
  /** The buyer pays on delivery: only points that take cash or card are shown. */
  cod?: boolean;
  /** How the buyer will pay on delivery, for the shop's shipping rules (cash when not given). */
  paymentOnDelivery?: 'cash' | 'card';
  /** The buyer's segment as the shop names it (wholesale, vip …), for the shop's shipping rules; the order keeps it. */
  segment?: string;
  /** 1 pickup point, 2 courier, 3 post. */
  modes?: Array<1 | 2 | 3>;
  /** A city to start from: its name (and region) or fias. */
  defaultLocation?: { name?: string; region?: string; fias?: string };
  /** 'none': a list only; an object: a map with these tiles. Without tiles there is no map. */
  map?: 'none' | MapOptions;
  /**
   * Only for a page whose CSP allows styles by nonce and whose browser lacks constructable
   * stylesheets: the nonce the widget's <style> elements carry. Elsewhere the widget's styles
   * are constructed stylesheets, which need nothing of the page's CSP.
   */
  styleNonce?: string;
  /** The service's address; by default the one widget.js came from. */
  apiUrl?: string;
  /** Ask the buyer's name, phone and e-mail, kept with the selection (the widget-era compatibility script). */
  askContacts?: boolean;
  /** Prefilled contacts when askContacts is on. */
  contacts?: { fullName?: string; phone?: string; email?: string };
}

/**
 * ready, quote (the options of a city), change (a tab shown, with its own choice or null),
 * select (a choice priced: the token), city-not-found (a name the service does not know: the
 * offers and the choices are cleared), open and close (the widget shown or hidden), error.
 */
export type WidgetEvent = 'ready' | 'quote' | 'change' | 'select' | 'city-not-found' | 'open' | 'close' | 'error';
