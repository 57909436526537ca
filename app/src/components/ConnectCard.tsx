/**
 * A connection with secret parameters (a marketplace, a delivery company's contract): the
 * parameters typed in password fields, shown masked (as the API answers them) once connected;
 * connect and disconnect; where the page passes `check`, Check connection (of the credentials
 * typed, every field filled, or of the stored connection) and the answer in words.
 */
import { Badge, Button, Card, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ApiError } from './ApiError';
import {
  CheckConnectionButton,
  type ConnectionCheckAnswer,
  ConnectionCheckResult,
  useConnectionCheck,
} from './ConnectionCheck';
import { useText } from '../i18n';
import { useAction } from '../hooks/use-action';

interface Param {
  key: string;
  name: { ru: string; en: string };
  value: string;
}

/** Whether every parameter has a value typed. */
export function everyParamFilled(params: Param[], values: Record<string, string>): boolean {
  return params.every((param) => (values[param.key] ?? '').trim() !== '');
}

/** The secret parameters: shown masked (as the API answers them) once connected, else typed in password fields. */
export function SecretParamFields(props: {
  params: Param[];
  connected: boolean;
  values: Record<string, string>;
  onChange(values: Record<string, string>): void;
}) {
  const { locale } = useText();
  return props.params.map((param) =>
    props.connected ? (
      <Text key={param.key} size="sm">
        {param.name[locale]}: <code>{param.value}</code>
      </Text>
    ) : (
      <PasswordInput
        key={param.key}
        label={param.name[locale]}
        value={props.values[param.key] ?? ''}
        onChange={(event) => props.onChange({ ...props.values, [param.key]: event.currentTarget.value })}
      />
    ),
  );
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
  /** Check connection: of these typed values before connecting, of the stored connection (null) once connected. */
  check?(values: Record<string, string> | null): Promise<ConnectionCheckAnswer>;
}) {
  const { t } = useText();
  const [values, setValues] = useState<Record<string, string>>({});
  const action = useAction();
  const checker = useConnectionCheck();
  const filled = everyParamFilled(props.params, values);
  const run = async (call: () => Promise<unknown>) => {
    if (!(await action.run(call))) return;
    setValues({});
    checker.clear();
    props.changed();
  };
  const check = props.check;
  return (
    <Card withBorder data-testid={props.testId}>
      <Group justify="space-between">
        <Title order={3} size="h5">
          {props.name}
        </Title>
        {props.connected && <Badge color="teal.9">{t('connected')}</Badge>}
      </Group>
      <Stack gap="xs" mt="xs">
        <SecretParamFields
          params={props.params}
          connected={props.connected}
          values={values}
          onChange={(typed) => {
            setValues(typed);
            // an answer about other values than those now typed would mislead
            checker.clear();
          }}
        />
        {!props.connected && props.extra}
        {props.connected && props.settings}
      </Stack>
      <Group mt="sm">
        {/* first, as in the checklist: check, then connect */}
        {check && (
          <CheckConnectionButton
            checking={checker.checking}
            disabled={!props.connected && !filled}
            onClick={() => void checker.run(() => check(props.connected ? null : values))}
            testId={`check-${props.testId}`}
          />
        )}
        {props.connected ? (
          <Button color="red" variant="light" onClick={() => void run(props.disconnect)}>
            {t('disconnect')}
          </Button>
        ) : (
          <Button onClick={() => void run(() => props.connect(values))} data-testid={`connect-${props.testId}`}>
            {t('connect')}
          </Button>
        )}
        {/* said on a card being filled in, not on every untouched one */}
        {check && !props.connected && !filled && Object.values(values).some((value) => value.trim() !== '') && (
          <Text size="sm">{t('fillEveryField')}</Text>
        )}
      </Group>
      {check && (checker.checking || checker.check) && (
        <Stack mt="xs">
          <ConnectionCheckResult check={checker.check} checking={checker.checking} />
        </Stack>
      )}
      <ApiError error={action.error ?? checker.error} />
    </Card>
  );
}
