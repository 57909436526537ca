/**
 * The checklist's delivery companies: the built-in test companies (on, nothing to do), and a
 * contract with a real company: its credentials, Check connection (the company's own answer in
 * words, before anything is stored, or of the stored contract) and Connect.
 */
import { Badge, Button, Checkbox, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { everyParamFilled, SecretParamFields } from '../../components/ConnectCard';
import { CheckConnectionButton, ConnectionCheckResult, useConnectionCheck } from '../../components/ConnectionCheck';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';

export function DeliveryStep({ done }: { done(): void }) {
  const { t } = useText();
  const builtIn = useList(() => api.GET('/v2/lists/delivery-companies'), 'cl-companies');
  const contracts = useList(() => api.GET('/v2/carrier-integrations'), 'cl-contracts');
  const [companyId, setCompanyId] = useState<string | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [testMode, setTestMode] = useState(true);
  const checker = useConnectionCheck();
  const action = useAction();
  const company = (contracts.data ?? []).find((one) => String(one.companyId) === (companyId ?? '1001')) ?? null;
  const filled = company ? everyParamFilled(company.integrationParams, values) : false;
  const choose = (value: string | null) => {
    setCompanyId(value);
    setValues({});
    checker.clear();
  };
  const runCheck = (chosen: NonNullable<typeof company>) =>
    checker.run(async () =>
      ok(
        await api.POST('/v2/carrier-integrations/{companyId}/check', {
          params: { path: { companyId: chosen.companyId } },
          // the stored contract, or the credentials typed before connecting
          body: chosen.connected ? {} : { params: values, ...(chosen.hasTestEnvironment ? { testMode } : {}) },
        }),
      ),
    );
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
      checker.clear();
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
          <SecretParamFields
            params={company.integrationParams}
            connected={company.connected}
            values={values}
            onChange={setValues}
          />
          {!company.connected && company.hasTestEnvironment && (
            <Checkbox
              label={t('clInTestEnvironment')}
              checked={testMode}
              onChange={(event) => setTestMode(event.currentTarget.checked)}
            />
          )}
          <Group>
            <CheckConnectionButton
              checking={checker.checking}
              disabled={!company.connected && !filled}
              onClick={() => void runCheck(company)}
              testId="checklist-check-connection"
            />
            {!company.connected && (
              <Button disabled={!filled} onClick={() => void connect()} data-testid="checklist-connect">
                {t('clConnectContract')}
              </Button>
            )}
            {!company.connected && !filled && <Text size="sm">{t('fillEveryField')}</Text>}
          </Group>
          <ConnectionCheckResult check={checker.check} checking={checker.checking} />
        </Stack>
      )}
      <ApiError error={contracts.error ?? action.error ?? checker.error} />
    </Stack>
  );
}
