/** What each part of the order form is given, and the number fields' reading. */
import type { OrderDraft } from '../order-draft';

export interface FormPartProps {
  draft: OrderDraft;
  /** Changes the draft, kept in sessionStorage as it is typed. */
  update(patch: Partial<OrderDraft>): void;
  /** The refusal's message for the first of these fields that has one (the API names some fields two ways). */
  err(...names: string[]): string | undefined;
}

/** A number field's value: empty is null. */
export const numberOrNull = (value: string | number) => (value === '' ? null : Number(value));
