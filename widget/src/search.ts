/**
 * The city search: what the buyer types is looked up after a pause in typing (an answer to an
 * older text is dropped), the cities found are suggested, Enter takes the first and Escape
 * closes them; a page's setLocation finds its city here too. Apart from index.ts because it
 * keeps its own state (the timer, the text last asked) and needs nothing of the flow but what
 * to do with a city chosen, a name not found and a failure.
 */
import type { Api, Locality } from './api.js';
import { suggestion } from './markup.js';

/** What the flow does with what the search found. */
export interface SearchEvents {
  chosen(city: Locality): void;
  notFound(typed: string): void;
  failed(error: unknown): void;
}

/** What a page may name a city by (setLocation, defaultLocation). */
export interface LocationAsked {
  name?: string;
  region?: string;
  fias?: string;
}

export class CitySearch {
  private timer = 0;
  /** Counts the texts asked: only the answer to the last one is shown. */
  private asked = 0;

  constructor(
    private readonly input: HTMLInputElement,
    private readonly suggest: HTMLUListElement,
    private readonly api: Api,
    private readonly events: SearchEvents,
  ) {
    input.addEventListener('input', () => this.typed());
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') (suggest.querySelector('li') as HTMLLIElement | null)?.click();
      if (event.key === 'Escape') this.show([]);
    });
  }

  /** The cities suggested under the input; none closes the list. */
  show(found: Locality[]): void {
    this.suggest.replaceChildren(...found.map((city) => suggestion(city, () => this.events.chosen(city))));
    this.suggest.hidden = found.length === 0;
    this.input.setAttribute('aria-expanded', String(found.length > 0));
  }

  /**
   * The city a page names: its fias as given, or the first found by name (within the region
   * when one is given); undefined when the service knows no such name.
   */
  async find(location: LocationAsked): Promise<Locality | undefined> {
    const found = location.fias
      ? [{ fias: location.fias, name: location.name ?? '', region: location.region ?? '' } as Locality]
      : await this.api.localities(location.name ?? '');
    return location.region
      ? (found.find((item) => item.region.includes(location.region as string)) ?? found[0])
      : found[0];
  }

  private typed(): void {
    clearTimeout(this.timer);
    const typed = this.input.value.trim();
    if (typed.length < 2) return this.show([]);
    this.timer = window.setTimeout(async () => {
      const mine = ++this.asked;
      try {
        const found = await this.api.localities(typed);
        if (mine !== this.asked) return;
        if (found.length === 0) this.events.notFound(typed);
        else this.show(found);
      } catch (error) {
        this.events.failed(error);
      }
    }, 200);
  }
}
