/**
 * Check connection: the button, and what the delivery company answered in the page's language
 * (the service's sentence: accepted; refused, with the company's own words; unreachable; no
 * answer in time; not working now; an answer its API does not describe). The checklist's
 * delivery step and the contracts of Settings → Integrations show the same; each page passes
 * the call (typed credentials, or the stored contract).
 */
import { Alert, Button, Text } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../api';
import { useAction } from '../hooks/use-action';
import { useText } from '../i18n';

export type ConnectionCheckAnswer = Schemas['ConnectionCheck'];

const COLOURS: Record<ConnectionCheckAnswer['outcome'], string> = {
  accepted: 'teal.9',
  refused: 'red.9',
  unreachable: 'orange.9',
  timeout: 'orange.9',
  unavailable: 'orange.9',
  unexpected: 'grape.9',
};

/** A check's state: its answer, whether one is under way, and the service's refusal (ApiError shows it). */
export function useConnectionCheck(): {
  check: ConnectionCheckAnswer | null;
  checking: boolean;
  error: unknown;
  run(ask: () => Promise<ConnectionCheckAnswer>): Promise<void>;
  clear(): void;
} {
  const [check, setCheck] = useState<ConnectionCheckAnswer | null>(null);
  const [checking, setChecking] = useState(false);
  const action = useAction();
  return {
    check,
    checking,
    error: action.error,
    run: async (ask) => {
      setChecking(true);
      setCheck(null);
      await action.run(async () => setCheck(await ask()));
      setChecking(false);
    },
    clear: () => setCheck(null),
  };
}

export function CheckConnectionButton(props: {
  checking: boolean;
  disabled?: boolean;
  onClick(): void;
  testId: string;
}) {
  const { t } = useText();
  return (
    <Button
      variant="default"
      loading={props.checking}
      disabled={props.disabled}
      onClick={props.onClick}
      data-testid={props.testId}
    >
      {t('checkConnection')}
    </Button>
  );
}

/** "Asking the company…" while a check runs, then its answer. */
export function ConnectionCheckResult({ check, checking }: { check: ConnectionCheckAnswer | null; checking: boolean }) {
  const { t, locale } = useText();
  if (checking) return <Text size="sm">{t('checkingConnection')}</Text>;
  if (!check) return null;
  return (
    <Alert
      color={COLOURS[check.outcome]}
      variant="outline"
      role="status"
      data-testid="connection-check"
      data-outcome={check.outcome}
    >
      <Text size="sm" c="dark.9">
        {check.message[locale]}
      </Text>
    </Alert>
  );
}
