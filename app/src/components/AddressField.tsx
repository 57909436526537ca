/**
 * An address part typed by a person (a city, a street). A seam for address suggestions: a
 * page passes `suggest` (what the text may be completed to) once an address directory is
 * offered, and the field becomes an autocomplete; without it, a plain text field.
 */
import { Autocomplete, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';

export interface AddressFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  required?: boolean;
  testId?: string;
  /** Completions of the typed text (a later address directory); none: a plain field. */
  suggest?: (typed: string) => Promise<string[]>;
}

export function AddressField(props: AddressFieldProps) {
  const [options, setOptions] = useState<string[]>([]);
  const { suggest, value } = props;
  useEffect(() => {
    if (!suggest || value.trim().length < 2) return;
    let live = true;
    const timer = setTimeout(() => {
      suggest(value).then(
        (found) => live && setOptions(found),
        () => undefined,
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [suggest, value]);
  const common = {
    label: props.label,
    value: props.value,
    error: props.error ?? undefined,
    required: props.required,
    'data-testid': props.testId,
  };
  if (!suggest) return <TextInput {...common} onChange={(event) => props.onChange(event.currentTarget.value)} />;
  return <Autocomplete {...common} data={options} onChange={props.onChange} />;
}
