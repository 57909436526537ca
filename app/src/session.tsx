/** Who is signed in: asked of GET /v2/auth/session at load; the CSRF token kept in memory only. */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, ok, onSessionEnded, setCsrfToken, type Schemas } from './api';

export type SessionView = Schemas['SessionView'];

interface SessionState {
  /** undefined: still asking; null: signed out. */
  session: SessionView | null | undefined;
  /** The session ended while working (not a sign-out): sign-in says so and the page's draft waits. */
  ended: boolean;
  signIn(email: string, password: string): Promise<void>;
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

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionView | null | undefined>(undefined);
  const [ended, setEnded] = useState(false);

  const adopt = useCallback((view: SessionView | null) => {
    setCsrfToken(view?.csrfToken ?? null);
    setSession(view);
  }, []);

  useEffect(() => {
    api.GET('/v2/auth/session').then(
      (result) => adopt(result.data ?? null),
      () => adopt(null),
    );
    return onSessionEnded(() => {
      setCsrfToken(null);
      setSession((current) => {
        if (current) setEnded(true);
        return null;
      });
    });
  }, [adopt]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      adopt(ok(await api.POST('/v2/auth/session', { body: { email, password } })));
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

  return <SessionContext.Provider value={{ session, ended, signIn, signOut }}>{children}</SessionContext.Provider>;
}
