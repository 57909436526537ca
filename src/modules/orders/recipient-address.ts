/**
 * A courier order's recipient address checked against the federal address register
 * (modules/addresses, register-check.ts): the address as typed stays in the contract's fields,
 * and what the register made of it goes beside them in `deliveryAddress.register` (extension):
 * the FIAS id, the postcode, the coordinates and how sure the register is. An address that is
 * less than a house is never refused (real plugins send what they have): its finding is said in
 * `register.finding`, and the order stays confirmable (its `error` is the contract's "not
 * priced", which refuses confirmation; docs/decisions/addresses.md, "Where addresses are used").
 */
import {
  ADDRESS_CHECK_DEADLINE_MS,
  checkAddress,
  type AddressChecker,
  type RegisterEntry,
  type TypedAddress,
} from '../addresses/register-check.js';

export type { AddressChecker } from '../addresses/register-check.js';

/** `deliveryAddress.register` of an order. */
export type RecipientRegisterEntry = RegisterEntry;

/**
 * What the register makes of a courier order's address: by the FIAS id its suggestion gave,
 * else by cleaning the text. Never throws (register-check.ts).
 */
export function checkRecipientAddress(
  checker: AddressChecker,
  address: TypedAddress,
  accountId: number,
  deadlineMs = ADDRESS_CHECK_DEADLINE_MS,
): Promise<RecipientRegisterEntry> {
  return checkAddress(checker, address, accountId, { advice: 'check it before the courier goes' }, deadlineMs);
}
