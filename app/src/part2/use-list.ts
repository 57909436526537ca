/** Part 2's pages' shared loading: one list call, its total, its error, and a reload. */
import { useCallback, useEffect, useState } from 'react';
import { api, ok, totalOf } from '../api';

export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export interface Loaded<T> {
  data: T | null;
  total: number;
  error: unknown;
  reload(): void;
}

/**
 * Calls `load` when `key` changes (or reload is called) and keeps the latest answer; an answer
 * overtaken by a newer call is dropped. The network's failure is said by the layout's banner.
 */
export function useList<T>(load: () => Promise<Answer<T>>, key: string): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [total, setTotal] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  useEffect(() => {
    let live = true;
    load().then(
      (result) => {
        if (!live) return;
        try {
          setData(ok(result));
          setTotal(totalOf(result.response));
          setError(null);
        } catch (caught) {
          setError(caught);
        }
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
    // the key stands for load's inputs
  }, [key, generation]);
  return { data, total, error, reload };
}

/** The service's fulfilment warehouses (GET /v2/warehouses?hold=1), where supplies go and stock is kept. */
export function useFulfilmentWarehouses(): Array<{ id: number; name: string }> {
  const { data } = useList(() => api.GET('/v2/warehouses', { params: { query: { hold: 1, perPage: 1000 } } }), 'hold');
  return (data ?? []).map((warehouse) => ({ id: warehouse.id, name: warehouse.name }));
}

/** An action's refusal, kept for ApiError: run clears it, runs the call and keeps what it threw; answers whether the call succeeded. */
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
