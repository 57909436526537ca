/**
 * The list of the tab shown and each tab's choice: the rows it is filled with, the row of this
 * tab's choice marked among them, the fade at its foot while more rows wait below (a phone
 * shows no scroll bar), and the choices themselves, one per tab, so that switching tabs shows
 * that tab's choice or none. Apart from index.ts: the flow decides which rows there are and
 * when a choice is made or forgotten, this file which row is marked and what was chosen.
 */
import type { Selection } from './api.js';

/** A tab's choice: the row its list marks (rowKey), what its status line says, and the selection the shop was given. */
export interface Choice {
  row: string;
  summary: string;
  selection: Selection;
}

/** What names a row of the list: its point, or its company when it is an option without points. */
export function rowKey(row: { point?: unknown; company?: unknown }): string {
  return row.point !== undefined ? `point ${row.point}` : `company ${row.company}`;
}

export class ChoiceList {
  /** Each tab's own choice, by mode. */
  private readonly choices = new Map<number, Choice>();
  private readonly resized: ResizeObserver;

  constructor(private readonly list: HTMLUListElement) {
    // the fade is measured when the list scrolls, is filled or changes size (a phone turned)
    list.addEventListener('scroll', () => this.showMoreBelow());
    this.resized = new ResizeObserver(() => this.showMoreBelow());
    this.resized.observe(list);
  }

  /** The choice made on a tab, if any. */
  of(mode: number): Choice | undefined {
    return this.choices.get(mode);
  }

  set(mode: number, choice: Choice): void {
    this.choices.set(mode, choice);
  }

  /** Every tab's choice forgotten: another city, or new prices. */
  clear(): void {
    this.choices.clear();
  }

  /** The list's new rows, the choice of the tab shown (mode) marked among them, and the fade when more wait below. */
  fill(items: HTMLLIElement[], mode: number): void {
    this.mark(items, mode);
    this.list.replaceChildren(...items);
    this.showMoreBelow();
  }

  /** Marks again the rows already shown, after the tab's choice changed. */
  markShown(mode: number): void {
    this.mark(this.list.querySelectorAll<HTMLElement>('.item'), mode);
  }

  disconnect(): void {
    this.resized.disconnect();
  }

  /** Marks the row of the tab's choice as selected, and no other (rows to choose from only). */
  private mark(items: Iterable<HTMLElement>, mode: number): void {
    const chosen = this.choices.get(mode)?.row;
    for (const item of items)
      if (item.getAttribute('role') === 'option')
        item.setAttribute('aria-selected', String(rowKey(item.dataset) === chosen));
  }

  /** Fades the list's foot while rows are hidden below it. */
  private showMoreBelow(): void {
    const list = this.list;
    list.classList.toggle('more', list.scrollTop + list.clientHeight < list.scrollHeight - 1);
  }
}
