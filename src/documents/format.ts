/** How addresses and parties read on a document. */
import type { DocumentParty, PostalAddress } from './types.js';

function present(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** "101000, Москва, ул. Мясницкая, д. 1, корп. 2, кв. 3" (a string address is printed as is). */
export function formatAddress(address: PostalAddress | string | null | undefined): string {
  if (!address) return '';
  if (typeof address === 'string') return address.trim();
  const parts: string[] = [];
  if (present(address.zipCode)) parts.push(address.zipCode.trim());
  if (present(address.region) && address.region.trim() !== address.city.trim()) parts.push(address.region.trim());
  if (present(address.area)) parts.push(address.area.trim());
  parts.push(address.city.trim());
  if (present(address.street)) parts.push(address.street.trim());
  if (present(address.house)) parts.push(`д. ${address.house.trim()}`);
  if (present(address.bulk)) parts.push(`корп. ${address.bulk.trim()}`);
  if (present(address.flat)) parts.push(`кв. ${address.flat.trim()}`);
  return parts.filter((part) => part !== '').join(', ');
}

/** "Иванов Иван, +7 900 000-00-00" with the legal entity first when there is one. */
export function formatParty(party: DocumentParty): string {
  const name =
    present(party.legalName) && party.legalName.trim() !== party.name.trim()
      ? `${party.legalName.trim()} (${party.name.trim()})`
      : party.name.trim();
  return present(party.phone) ? `${name}, ${party.phone.trim()}` : name;
}
