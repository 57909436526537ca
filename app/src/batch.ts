/**
 * What a batch operation's refusal says about each order. The service's batches are all or
 * nothing (README): a 4xx names every failing id in `errors` ({id, message}); the page shows each
 * message next to its order and keeps the others selected for another try.
 */
import { DeliveryApiError } from './api';

export type BatchErrors = Map<number, string>;

export function batchErrorsOf(error: unknown): BatchErrors {
  const found: BatchErrors = new Map();
  if (!(error instanceof DeliveryApiError)) return found;
  for (const item of error.errors ?? []) {
    const id = (item as { id?: unknown }).id;
    if (typeof id === 'number') found.set(id, item.message);
  }
  return found;
}

/** The error message of a field (`recipient.phone`, `products[0].weight`) in a refusal, for the form. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  const found: Record<string, string> = {};
  if (!(error instanceof DeliveryApiError)) return found;
  for (const item of error.errors ?? []) {
    const field = (item as { field?: unknown }).field;
    if (typeof field === 'string' && !(field in found)) found[field] = item.message;
  }
  return found;
}
