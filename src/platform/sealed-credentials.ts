/**
 * Credentials of an account's integrations (marketplaces, delivery companies): read from a
 * body along the integration's parameter list, sealed with the instance secret for the
 * database, masked for GET. Never logged: callers keep them out of log fields.
 */
import type { SecretBox } from './crypto.js';
import { FieldErrorCollector } from './errors.js';

export type Credentials = Record<string, string>;

/** What GET shows of a credential: the last 4 characters of a value of 8 or more, never the rest. */
export function maskCredential(value: string): string {
  return value.length >= 8 ? `****${value.slice(-4)}` : '****';
}

/** Exactly the integration's keys, each a non-empty string; every wrong key named at once (400). */
export function readCredentials(
  params: Record<string, string | undefined>,
  keys: string[],
  ownerName: string,
  fieldPrefix = '',
): Credentials {
  const problems = new FieldErrorCollector();
  const known = new Set(keys);
  for (const key of Object.keys(params))
    if (!known.has(key))
      problems.add(
        `${fieldPrefix}${key}`,
        `is not an integration parameter of ${ownerName} (expected ${keys.join(', ')})`,
      );
  const credentials: Credentials = {};
  for (const key of keys) {
    const value = params[key]?.trim();
    if (!value) problems.add(`${fieldPrefix}${key}`, 'is required');
    else credentials[key] = value;
  }
  problems.throwIfAny();
  return credentials;
}

/** The sealed JSON for the database and the masked copy for GET. */
export function sealCredentials(
  secretBox: SecretBox,
  credentials: Credentials,
): { sealed: string; masked: Record<string, string> } {
  return {
    sealed: secretBox.seal(JSON.stringify(credentials)),
    masked: Object.fromEntries(Object.entries(credentials).map(([key, value]) => [key, maskCredential(value)])),
  };
}

export function openCredentials(secretBox: SecretBox, sealed: string): Credentials {
  return JSON.parse(secretBox.open(sealed)) as Credentials;
}
