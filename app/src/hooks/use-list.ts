/** A page's list loading: one list call, its total, its error, and a reload. */
import { useCallback, useEffect, useState } from 'react';
import { ok, totalOf } from '../api';

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
