/** One's own security: change the password, the second factor (on with a QR code, off with the password), the sessions. */
import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { formatInstant } from '../../format';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';
import { useSignedIn } from '../../session';
import { RecoveryCodes, SecondFactorSetupFields } from './AuthFrame';
import { CurrentPasswordField, NewPasswordField, useSubmit } from './fields';

function ChangePassword({ changed }: { changed(): void }) {
  const { t } = useText();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNext] = useState('');
  const [done, setDone] = useState(false);
  const form = useSubmit(async () => {
    ok(await api.POST('/v2/auth/password', { body: { currentPassword, newPassword } }));
    setCurrent('');
    setNext('');
    setDone(true);
    changed();
  });
  return (
    <Card withBorder component="section" aria-labelledby="change-password">
      <form onSubmit={form.submit}>
        <Stack>
          <Title order={2} size="h4" id="change-password">
            {t('changePassword')}
          </Title>
          <CurrentPasswordField label={t('currentPassword')} value={currentPassword} onChange={setCurrent} />
          <NewPasswordField value={newPassword} onChange={setNext} />
          <ApiError error={form.error} />
          {done && (
            <Alert color="green" role="status">
              {t('passwordChanged')}
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={form.busy} data-testid="change-password">
              {t('changePassword')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function SecondFactor() {
  const { t } = useText();
  const status = useList(() => api.GET('/v2/auth/second-factor'), 'second-factor');
  const [setup, setSetup] = useState<Schemas['SecondFactorSetup'] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const begin = useSubmit(async () => setSetup(ok(await api.POST('/v2/auth/second-factor'))));
  const confirm = useSubmit(async () => {
    setCodes(ok(await api.POST('/v2/auth/second-factor/confirm', { body: { code } })).recoveryCodes);
    setSetup(null);
    setCode('');
  });
  const disable = useSubmit(async () => {
    ok(await api.POST('/v2/auth/second-factor/disable', { body: { password } }));
    setPassword('');
    status.reload();
  });
  const state = status.data;
  return (
    <Card withBorder component="section" aria-labelledby="second-factor">
      <Stack>
        <Title order={2} size="h4" id="second-factor">
          {t('secondFactor')}
        </Title>
        <ApiError error={status.error} />
        {codes ? (
          <RecoveryCodes
            codes={codes}
            onContinue={() => {
              setCodes(null);
              status.reload();
            }}
          />
        ) : state?.enabled ? (
          <>
            <Text size="sm" data-testid="second-factor-on">
              {t('secondFactorOn', { count: state.recoveryCodesLeft })}
            </Text>
            {state.required ? (
              <Text size="sm">{t('secondFactorEnforced')}</Text>
            ) : (
              <form onSubmit={disable.submit}>
                <Group align="end">
                  <CurrentPasswordField label={t('passwordToTurnOff')} value={password} onChange={setPassword} />
                  <Button type="submit" variant="default" loading={disable.busy}>
                    {t('turnOff')}
                  </Button>
                </Group>
                <ApiError error={disable.error} />
              </form>
            )}
          </>
        ) : setup ? (
          <form onSubmit={confirm.submit}>
            <Stack>
              <SecondFactorSetupFields setup={setup} code={code} onCode={setCode} />
              <ApiError error={confirm.error} />
              <Group>
                <Button type="submit" loading={confirm.busy} data-testid="confirm-second-factor">
                  {t('confirmCode')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          state && (
            <>
              <Text size="sm">{t('secondFactorOff')}</Text>
              <ApiError error={begin.error} />
              <Group>
                <Button onClick={() => void begin.submit()} loading={begin.busy} data-testid="turn-on-second-factor">
                  {t('turnOn')}
                </Button>
              </Group>
            </>
          )
        )}
      </Stack>
    </Card>
  );
}

function Sessions({ generation }: { generation: number }) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const sessions = useList(() => api.GET('/v2/auth/sessions'), `sessions-${generation}`);
  const [error, setError] = useState<unknown>(null);
  const end = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      sessions.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  const when = (value: string | null) => formatInstant(value, locale, session.timeZone);
  return (
    <Card withBorder component="section" aria-labelledby="sessions">
      <Stack>
        <Title order={2} size="h4" id="sessions">
          {t('sessions')}
        </Title>
        <Text size="sm">{t('sessionsHint')}</Text>
        <ApiError error={sessions.error ?? error} />
        <DataTable
          rows={sessions.data}
          rowKey={(row) => row.id}
          rowProps={(row) => ({ 'data-testid': row.current ? 'session-current' : 'session-other' })}
          labels={{ empty: t('nothingYet') }}
          columns={[
            {
              key: 'client',
              header: t('client'),
              cell: (row) => (
                <Group gap={4}>
                  <Text size="sm">{row.kind === 'api' ? t('apiToken') : (row.userAgent ?? '—')}</Text>
                  {row.current && <Badge color="teal.9">{t('thisSession')}</Badge>}
                </Group>
              ),
            },
            { key: 'address', header: t('address'), cell: (row) => row.address ?? '—' },
            { key: 'created', header: t('startedAt'), cell: (row) => when(row.createdAt) },
            { key: 'seen', header: t('lastSeenAt'), cell: (row) => when(row.lastSeenAt) },
            {
              key: 'end',
              header: t('endSession'),
              cell: (row) =>
                row.current ? null : (
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() =>
                      void end(async () =>
                        ok(await api.DELETE('/v2/auth/sessions/{id}', { params: { path: { id: row.id } } })),
                      )
                    }
                  >
                    {t('endSession')}
                  </Button>
                ),
            },
          ]}
        />
        <Group>
          <Button
            variant="default"
            color="red"
            onClick={() => void end(async () => ok(await api.DELETE('/v2/auth/sessions')))}
            data-testid="end-other-sessions"
          >
            {t('endOtherSessions')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function SecurityPage() {
  const { t } = useText();
  const [generation, setGeneration] = useState(0);
  return (
    <Stack>
      <Title order={1} size="h2">
        {t('security')}
      </Title>
      <ChangePassword changed={() => setGeneration((value) => value + 1)} />
      <SecondFactor />
      <Sessions generation={generation} />
    </Stack>
  );
}
