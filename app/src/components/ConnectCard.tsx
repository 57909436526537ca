/**
 * A connection with secret parameters (a marketplace, a delivery company's contract): the
 * parameters typed in password fields, shown masked (as the API answers them) once connected;
 * connect and disconnect.
 */
import { Badge, Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ApiError } from './ApiError';
import { useText } from '../i18n';
import { useAction } from '../hooks/use-action';

interface Param {
  key: string;
  name: { ru: string; en: string };
  value: string;
}

export function ConnectCard(props: {
  testId: string;
  name: string;
  connected: boolean;
  params: Param[];
  connect(values: Record<string, string>): Promise<unknown>;
  disconnect(): Promise<unknown>;
  changed(): void;
  /** More fields shown before connecting (a test-mode switch). */
  extra?: ReactNode;
  /** Shown once connected: the connection's own settings (a marketplace's shipment schemes). */
  settings?: ReactNode;
}) {
  const { t, locale } = useText();
  const [values, setValues] = useState<Record<string, string>>({});
  const action = useAction();
  const run = async (call: () => Promise<unknown>) => {
    if (!(await action.run(call))) return;
    setValues({});
    props.changed();
  };
  return (
    <Card withBorder data-testid={props.testId}>
      <Group justify="space-between">
        <Title order={3} size="h5">
          {props.name}
        </Title>
        {props.connected && <Badge color="teal.9">{t('connected')}</Badge>}
      </Group>
      <Stack gap="xs" mt="xs">
        {props.params.map((param) =>
          props.connected ? (
            <Text key={param.key} size="sm">
              {param.name[locale]}: <code>{param.value}</code>
            </Text>
          ) : (
            <PasswordInput
              key={param.key}
              label={param.name[locale]}
              value={values[param.key] ?? ''}
              onChange={(event) => setValues({ ...values, [param.key]: event.currentTarget.value })}
            />
          ),
        )}
        {!props.connected && props.extra}
        {props.connected && props.settings}
      </Stack>
      <Group mt="sm">
        {props.connected ? (
          <Button color="red" variant="light" onClick={() => void run(props.disconnect)}>
            {t('disconnect')}
          </Button>
        ) : (
          <Button onClick={() => void run(() => props.connect(values))} data-testid={`connect-${props.testId}`}>
            {t('connect')}
          </Button>
        )}
      </Group>
      <ApiError error={action.error} />
    </Card>
  );
}
