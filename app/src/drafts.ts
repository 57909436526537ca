/**
 * A form's text kept in sessionStorage while it is being filled: a session that ends (or a
 * reload) brings the operator back to the same form with the same text. sessionStorage, not
 * localStorage: it dies with the tab, and another person at the same computer does not get it.
 */
export interface DraftStore {
  load<T>(key: string): T | null;
  save(key: string, value: unknown): void;
  forget(key: string): void;
}

export function draftStore(
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined = globalThis.sessionStorage,
): DraftStore {
  const name = (key: string) => `dashboard.draft.${key}`;
  return {
    load<T>(key: string): T | null {
      try {
        const raw = storage?.getItem(name(key));
        return raw ? (JSON.parse(raw) as T) : null;
      } catch {
        return null;
      }
    },
    save(key, value) {
      try {
        storage?.setItem(name(key), JSON.stringify(value));
      } catch {
        // a full or refused storage: the draft lives in memory only
      }
    },
    forget(key) {
      storage?.removeItem(name(key));
    },
  };
}
