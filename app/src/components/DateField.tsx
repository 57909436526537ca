/**
 * A date typed or picked (Mantine's DateInput): what a person types is read day first or as
 * yyyy-mm-dd (format.ts, parseTypedDate), never month first. Text it cannot read, or a day
 * outside the field's range, leaves the field without a day and is said under it when the
 * person leaves the field: left to itself the input kept the day it had before, or cleared the
 * text, without a word, and the page went on with a day nobody meant.
 */
import { DateInput, type DateInputProps } from '@mantine/dates';
import dayjs from 'dayjs';
import { useState } from 'react';
import { dateInputFormat, formatDay, parseTypedDate } from '../format';
import { useText } from '../i18n';

type Bound = DateInputProps['minDate'];

function dayOf(bound: Bound): string | null {
  return bound ? dayjs(bound).format('YYYY-MM-DD') : null;
}

export function DateField({ minDate, maxDate, error, onChange, onBlur, onInput, ...props }: DateInputProps) {
  const { t, locale } = useText();
  const [refusal, setRefusal] = useState<string | null>(null);
  const earliest = dayOf(minDate);
  const latest = dayOf(maxDate);
  const format = dateInputFormat(locale);

  /** Why the typed text gives no day of this field, or null when it gives one (or is empty). */
  const refusalOf = (text: string): string | null => {
    if (text.trim() === '') return null;
    const day = parseTypedDate(text);
    if (day === null) return t('dateUnreadable', { text: text.trim(), format: format.placeholder });
    if (earliest && day < earliest) return t('dateTooEarly', { day: formatDay(earliest, locale) });
    if (latest && day > latest) return t('dateTooLate', { day: formatDay(latest, locale) });
    return null;
  };

  return (
    <DateInput
      valueFormat={format.valueFormat}
      placeholder={format.placeholder}
      {...props}
      minDate={minDate}
      maxDate={maxDate}
      dateParser={parseTypedDate}
      onChange={(value) => {
        if (value) setRefusal(null);
        onChange?.(value);
      }}
      // while typing: text that gives no day takes away the day the field had (the input itself keeps it)
      onInput={(event) => {
        setRefusal(null);
        if (refusalOf(event.currentTarget.value) !== null) onChange?.(null);
        onInput?.(event);
      }}
      // on leaving the field: why the text gives no day, under it (the input then clears the text)
      onBlur={(event) => {
        setRefusal(refusalOf(event.currentTarget.value));
        onBlur?.(event);
      }}
      error={refusal ?? error}
    />
  );
}
