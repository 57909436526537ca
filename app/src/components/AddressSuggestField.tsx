/**
 * A text field that suggests what the typed text may be completed to, and hands the page the
 * suggestion picked (an address with its parts, where the page fills several fields from it).
 * It knows no area and calls nothing itself: the page gives `suggest` (its own API call, e.g.
 * GET /v2/addresses/suggest restricted to the chosen city) and `labelOf`. Mantine's
 * Autocomplete: arrows move through the list, Enter takes one, Escape closes it.
 */
import { Autocomplete } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

/** How long typing pauses before `suggest` is asked (ms): each key would be a request otherwise. */
const PAUSE_MS = 200;

export interface AddressSuggestFieldProps<T> {
  label: string;
  value: string;
  /** The text typed (not a suggestion picked). */
  onChange(value: string): void;
  /** A suggestion picked: the page fills its fields from it (this field's text too). */
  onPick(suggestion: T): void;
  suggest(typed: string): Promise<T[]>;
  /** The line a suggestion is shown as (unique among those shown). */
  labelOf(suggestion: T): string;
  error?: string | null;
  required?: boolean;
  placeholder?: string;
  testId?: string;
  /** Letters typed before `suggest` is asked (default 2; a house number is worth asking from its first digit). */
  minLength?: number;
}

export function AddressSuggestField<T>(props: AddressSuggestFieldProps<T>) {
  const [found, setFound] = useState<T[]>([]);
  const { suggest, value } = props;
  // a pick sets the field's text: suggesting for that text would open the list again over it
  const justPicked = useRef(false);
  useEffect(() => {
    const typed = value.trim();
    if (justPicked.current || typed.length < (props.minLength ?? 2)) {
      justPicked.current = false;
      return setFound([]);
    }
    let live = true;
    const timer = setTimeout(() => {
      suggest(typed).then(
        (answer) => live && setFound(answer),
        // suggestions are a help: a failed one leaves the person typing, as without them
        () => live && setFound([]),
      );
    }, PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [suggest, value, props.minLength]);
  const labels = [...new Set(found.map(props.labelOf))];
  return (
    <Autocomplete
      label={props.label}
      placeholder={props.placeholder}
      required={props.required}
      error={props.error ?? undefined}
      value={value}
      data={labels}
      // the service has already filtered: its answer is shown as it is
      filter={({ options }) => options}
      onChange={(text) => {
        // a label picked (click or Enter) arrives here as the new text: the pick is made from its suggestion
        const suggestion = found.find((item) => props.labelOf(item) === text);
        if (!suggestion) return props.onChange(text);
        justPicked.current = true;
        setFound([]);
        props.onPick(suggestion);
      }}
      data-testid={props.testId}
    />
  );
}
