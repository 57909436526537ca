/**
 * The checklist's delivery companies: the built-in test companies (on, nothing to do), and a
 * contract with a real company: its credentials, Check connection (the company's own answer in
 * words, before anything is stored, or of the stored contract) and Connect.
 */
import { Alert, Badge, Button, Checkbox, Group, PasswordInput, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';

type Check = Schemas['ConnectionCheck'];
const COLOURS: Record<Check['outcome'], string> = {
  accepted: 'teal.9',
  refused: 'red.9',
  unreachable: 'orange.9',
  timeout: 'orange.9',
  unavailable: 'orange.9',
  unexpected: 'grape.9',
};

function CheckResult({ check }: { check: Check | null }) {
  const { locale } = useText();
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

export function DeliveryStep({ done }: { done(): void }) {
  const { t, locale } = useText();
  const builtIn = useList(() => api.GET('/v2/lists/delivery-companies'), 'cl-companies');
  const contracts = useList(() => api.GET('/v2/carrier-integrations'), 'cl-contracts');
  const [companyId, setCompanyId] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [testMode, setTestMode] = useState(true);
  const [check, setCheck] = useState<Check | null>(null);
  const [checking, setChecking] = useState(false);
  const action = useAction();
  const company = (contracts.data ?? []).find((one) => String(one.companyId) === (companyId ?? '1001')) ?? null;
  const filled = company ? company.integrationParams.every((param) => (values[param.key] ?? '').trim() !== '') : false;
  const choose = (value: string | null) => {
    setCompanyId(value);
    setValues({});
    setCheck(null);
  };
  const runCheck = async () => {
    if (!company) return;
    setChecking(true);
    setCheck(null);
    await action.run(async () => {
      const body = company.connected ? {} : { params: values, ...(company.hasTestEnvironment ? { testMode } : {}) };
      setCheck(
        ok(
          await api.POST('/v2/carrier-integrations/{companyId}/check', {
            params: { path: { companyId: company.companyId } },
            body,
          }),
        ),
      );
    });
    setChecking(false);
  };
  const connect = async () => {
    if (!company) return;
    const made = await action.run(async () =>
      ok(
        await api.POST('/v2/carrier-integrations/{companyId}', {
          params: { path: { companyId: company.companyId } },
          body: { params: values, ...(company.hasTestEnvironment ? { testMode } : {}) },
        }),
      ),
    );
    if (made) {
      setValues({});
      setCheck(null);
      contracts.reload();
      done();
    }
  };
  return (
    <Stack data-testid="checklist-delivery">
      <Title order={4} size="h5">
        {t('clTestCompanies')}
      </Title>
      <Group gap={6}>
        {(builtIn.data ?? []).slice(0, 12).map((one) => (
          <Badge key={String(one.id)} color="gray.7" variant="outline">
            {one.name}
          </Badge>
        ))}
      </Group>
      <Title order={4} size="h5">
        {t('clRealCompanies')}
      </Title>
      <Select
        label={t('clCompany')}
        value={company ? String(company.companyId) : null}
        allowDeselect={false}
        onChange={choose}
        data={(contracts.data ?? []).map((one) => ({
          value: String(one.companyId),
          label: one.connected ? `${one.name} — ${t('clConnectedAs')}` : one.name,
        }))}
        data-testid="checklist-company"
        maw={420}
      />
      {company && (
        <Stack gap="xs" maw={520}>
          {company.integrationParams.map((param) =>
            company.connected ? (
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
          {!company.connected && company.hasTestEnvironment && (
            <Checkbox
              label={t('clInTestEnvironment')}
              checked={testMode}
              onChange={(event) => setTestMode(event.currentTarget.checked)}
            />
          )}
          <Group>
            <Button
              variant="default"
              loading={checking}
              disabled={!company.connected && !filled}
              onClick={() => void runCheck()}
              data-testid="checklist-check-connection"
            >
              {t('clCheckConnection')}
            </Button>
            {!company.connected && (
              <Button disabled={!filled} onClick={() => void connect()} data-testid="checklist-connect">
                {t('clConnectContract')}
              </Button>
            )}
            {!company.connected && !filled && <Text size="sm">{t('clFillParams')}</Text>}
          </Group>
          {checking && <Text size="sm">{t('clChecking')}</Text>}
          <CheckResult check={check} />
        </Stack>
      )}
      <ApiError error={contracts.error ?? action.error} />
    </Stack>
  );
}
