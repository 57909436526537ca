/**
 * A warehouse's working hours, Monday to Sunday: "09:00-18:00" a day, a day left empty is a day
 * off (the checklist's warehouse step and the Warehouses page).
 */
import { SimpleGrid, type SimpleGridProps, Text, TextInput, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { type TextKey, useText } from '../i18n';

const DAYS: TextKey[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A new warehouse's week: nine to six on weekdays, the weekend off. */
export const WORKWEEK_HOURS = ['09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '09:00-18:00', '', ''];

/** The week as the API takes it: "HH:MM-HH:MM" a day (it reads {from, to} too), null for a day off. */
export function scheduleOf(hours: string[]): Array<string | null> {
  return hours.map((day) => (day.trim() ? day.trim() : null));
}

export function WeekHoursFields(props: {
  hours: string[];
  onChange(hours: string[]): void;
  /** How many days a row, by the width of the screen. */
  cols: SimpleGridProps['cols'];
  /** Said under the title. */
  hint?: ReactNode;
  /** Said under the days, as an alert. */
  error?: ReactNode;
}) {
  const { t } = useText();
  return (
    <>
      <Title order={4} size="h5">
        {t('schedule')}
      </Title>
      {props.hint && <Text size="sm">{props.hint}</Text>}
      <SimpleGrid cols={props.cols}>
        {DAYS.map((day, index) => (
          <TextInput
            key={day}
            label={t(day)}
            placeholder={t('dayOff')}
            value={props.hours[index] ?? ''}
            onChange={(event) =>
              props.onChange(props.hours.map((hours, at) => (at === index ? event.currentTarget.value : hours)))
            }
          />
        ))}
      </SimpleGrid>
      {props.error && (
        <Text size="sm" c="red.9" role="alert">
          {props.error}
        </Text>
      )}
    </>
  );
}
