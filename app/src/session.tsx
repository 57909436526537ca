/**
 * Who is signed in: asked of GET /v2/auth/session at load when this browser started a session
 * that has not ended yet (see sessionMayBeLive); the CSRF token kept in memory only.
 */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, ok, onSessionEnded, setCsrfToken, type Schemas } from './api';

export type SessionView = Schemas['SessionView'];

interface SessionState {
  /** undefined: still asking; null: signed out. */
  session: SessionView | null | undefined;
  /** The session ended while working (not a sign-out): sign-in says so and the page's draft waits. */
  ended: boolean;
  /** Takes the session an answer started (a sign-in, a link that signs in). */
  adopt(view: SessionView): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** The signed-in session (pages under the layout only render with one). */
export function useSignedIn(): SessionView {
  const { session } = useSession();
  if (!session) throw new Error('no session');
  return session;
}

/**
 * When the session this browser started stops working ("never" for one without an end). The
 * session cookie is HttpOnly, so the page cannot see it; it keeps this instead. Without it the
 * app shows sign-in at once and asks the service nothing: asking would only answer 401, which
 * the browser logs as an error in the console of a page nobody has signed in to yet.
 */
const SESSION_UNTIL = 'dashboard.sessionUntil';

interface SessionMemory {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export function rememberSession(view: SessionView | null, memory: SessionMemory | undefined = globalThis.localStorage) {
  if (!memory) return;
  if (view) memory.setItem(SESSION_UNTIL, view.expiresAt ?? 'never');
  else memory.removeItem(SESSION_UNTIL);
}

/** Whether a session this browser started may still work (the service has the last word). */
export function sessionMayBeLive(
  memory: SessionMemory | undefined = globalThis.localStorage,
  now: number = Date.now(),
): boolean {
  const until = memory?.getItem(SESSION_UNTIL);
  if (!until) return false;
  if (until === 'never') return true;
  const end = Date.parse(until);
  return Number.isFinite(end) && end > now;
}

/**
 * The question at load, asked once per page: React's strict mode runs an effect twice while
 * developing (and in the test suites' build), and both runs share this answer.
 */
let sessionAtLoad: Promise<SessionView | null> | null = null;

function askSessionAtLoad(): Promise<SessionView | null> {
  sessionAtLoad ??= api.GET('/v2/auth/session').then(
    (result) => result.data ?? null,
    () => null,
  );
  return sessionAtLoad;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  // read once, at load: later the answers of the service say it
  const [askAtLoad] = useState(sessionMayBeLive);
  const [session, setSession] = useState<SessionView | null | undefined>(askAtLoad ? undefined : null);
  const [ended, setEnded] = useState(false);

  const adopt = useCallback((view: SessionView | null) => {
    setCsrfToken(view?.csrfToken ?? null);
    rememberSession(view);
    setSession(view);
  }, []);

  useEffect(() => {
    let live = true;
    if (askAtLoad) void askSessionAtLoad().then((view) => live && adopt(view));
    const stopListening = onSessionEnded(() => {
      setCsrfToken(null);
      rememberSession(null);
      setSession((current) => {
        if (current) setEnded(true);
        return null;
      });
    });
    return () => {
      live = false;
      stopListening();
    };
  }, [adopt, askAtLoad]);

  const adoptStarted = useCallback(
    (view: SessionView) => {
      adopt(view);
      setEnded(false);
    },
    [adopt],
  );

  const signOut = useCallback(async () => {
    try {
      ok(await api.DELETE('/v2/auth/session'));
    } finally {
      setEnded(false);
      adopt(null);
    }
  }, [adopt]);

  return (
    <SessionContext.Provider value={{ session, ended, adopt: adoptStarted, signOut }}>
      {children}
    </SessionContext.Provider>
  );
}
