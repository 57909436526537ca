/**
 * A settings page's form (a shop's buyer messages, its returns): the saved settings, the draft
 * being edited, whether it changed, and loading and saving with their refusals kept for ApiError.
 */
import { useCallback, useEffect, useState } from 'react';

export interface SettingsForm<Saved, Draft> {
  saved: Saved | null;
  draft: Draft | null;
  loadError: unknown;
  saveError: unknown;
  changed: boolean;
  done: boolean;
  busy: boolean;
  /** The draft edited: marked changed, no longer "saved". */
  edit(next: Draft): void;
  /** Sends the draft; the answer becomes the saved settings and a fresh draft. */
  save(send: (draft: Draft, saved: Saved) => Promise<Saved>): Promise<void>;
}

export function useSettingsForm<Saved, Draft>(
  load: () => Promise<Saved>,
  draftOf: (saved: Saved) => Draft,
  /** Reloads when any of these change (the shop). */
  keys: readonly unknown[],
): SettingsForm<Saved, Draft> {
  const [saved, setSaved] = useState<Saved | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [changed, setChanged] = useState(false);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const show = useCallback(
    (settings: Saved) => {
      setSaved(settings);
      setDraft(draftOf(settings));
      setChanged(false);
    },
    [draftOf],
  );
  // reloaded when the caller's keys (the shop) change, not on every new closure
  useEffect(() => {
    load().then(show, setLoadError);
  }, keys);
  const edit = (next: Draft) => {
    setDraft(next);
    setChanged(true);
    setDone(false);
  };
  const save = async (send: (draft: Draft, saved: Saved) => Promise<Saved>) => {
    if (!draft || !saved) return;
    setSaveError(null);
    setBusy(true);
    try {
      show(await send(draft, saved));
      setDone(true);
    } catch (caught) {
      setSaveError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { saved, draft, loadError, saveError, changed, done, busy, edit, save };
}
