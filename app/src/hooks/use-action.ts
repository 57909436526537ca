/** An action's refusal, kept for ApiError: run clears it, runs the call and keeps what it threw; answers whether the call succeeded. */
import { useCallback, useState } from 'react';

export function useAction(): { error: unknown; run(call: () => Promise<unknown>): Promise<boolean> } {
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      return true;
    } catch (caught) {
      setError(caught);
      return false;
    }
  }, []);
  return { error, run };
}
