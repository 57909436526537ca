/** Whether the page asks the service who is signed in: only while a session this browser started may still work. */
import { describe, expect, it } from 'vitest';
import { rememberSession, type SessionView, sessionMayBeLive } from './session';

describe('the session', () => {
  it('is asked about only while one this browser started may still work', () => {
    const memory = new Map<string, string>();
    const storage = {
      getItem: (key: string) => memory.get(key) ?? null,
      setItem: (key: string, value: string) => void memory.set(key, value),
      removeItem: (key: string) => void memory.delete(key),
    };
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(sessionMayBeLive(storage, now)).toBe(false);
    rememberSession({ expiresAt: '2026-11-26T20:00:00Z' } as SessionView, storage);
    expect(sessionMayBeLive(storage, now)).toBe(true);
    expect(sessionMayBeLive(storage, Date.parse('2026-11-26T20:00:01Z'))).toBe(false);
    rememberSession({ expiresAt: null } as SessionView, storage);
    expect(sessionMayBeLive(storage, now)).toBe(true);
    rememberSession(null, storage);
    expect(sessionMayBeLive(storage, now)).toBe(false);
  });
});
