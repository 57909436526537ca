/**
 * A shop's return rules (GET and PUT /v2/shops/{id}/return-settings) in the frame of the other
 * per-shop settings: the buyers' returns page on or off, the window in days, the ways back each
 * with the companies the buyer chooses from, who pays the way back, the auto-approval rules, and
 * the shop's returns page link to copy onto its site. The service judges each company against
 * its way; its refusal is shown beside the field and in full below.
 */
import {
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  NumberInput,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { api, ok } from '../../api';
import { fieldErrorsOf } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { useSettingsForm } from '../../hooks/use-settings-form';
import { CopyValue } from '../../components/CopyValue';
import { useText } from '../../i18n';
import { useReference } from '../../reference';
import { RETURN_REASONS, RETURN_WAYS, type ReturnReason } from '../returns/return-model';
import {
  draftOf,
  errorAt,
  PAYERS,
  type Payer,
  type ReturnSettingsDraft,
  settingsBody,
  wayError,
  waysOn,
} from './return-settings-model';
import { ShopSettingsPage } from './ShopSettingsPage';

function ShopReturnSettings({ shopId }: { shopId: number }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const form = useSettingsForm(
    async () => ok(await api.GET('/v2/shops/{id}/return-settings', { params: { path: { id: shopId } } })),
    draftOf,
    [shopId],
  );
  const { saved, draft, saveError, changed, done, busy } = form;
  if (!saved || !draft) return <ApiError error={form.loadError} />;

  const change = (patch: Partial<ReturnSettingsDraft>) => form.edit({ ...draft, ...patch });
  const save = () =>
    form.save(async (sent) =>
      ok(
        await api.PUT('/v2/shops/{id}/return-settings', {
          params: { path: { id: shopId } },
          body: settingsBody(sent),
        }),
      ),
    );
  const fieldErrors = fieldErrorsOf(saveError);
  const companies = (reference?.companies ?? []).map((company) => ({ value: String(company.id), label: company.name }));

  return (
    <Stack>
      <Card withBorder data-testid="rt-general">
        <Stack gap="sm">
          <Switch
            label={t('rtEnabled')}
            checked={draft.enabled}
            onChange={(event) => change({ enabled: event.currentTarget.checked })}
            data-testid="rt-enabled"
          />
          <NumberInput
            label={t('rtWindowDays')}
            min={1}
            max={365}
            allowDecimal={false}
            value={draft.windowDays}
            onChange={(value) => change({ windowDays: value })}
            error={errorAt(fieldErrors, 'windowDays')}
            w={220}
            data-testid="rt-window-days"
          />
          <Radio.Group
            label={t('rtPayerRule')}
            value={draft.payer}
            onChange={(value) => change({ payer: value as Payer })}
            error={errorAt(fieldErrors, 'payer')}
          >
            <Stack gap={6} mt={4}>
              {PAYERS.map((payer) => (
                <Radio key={payer} value={payer} label={t(`rtPayer_${payer}`)} data-testid={`rt-payer-${payer}`} />
              ))}
            </Stack>
          </Radio.Group>
        </Stack>
      </Card>

      <Card withBorder data-testid="rt-ways">
        <Title order={3} size="h5">
          {t('rtWays')}
        </Title>
        <Text size="xs" c="gray.7" mb="xs">
          {t('rtWaysHint')}
        </Text>
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {RETURN_WAYS.map((way) => {
            const value = draft.ways[way];
            const setWay = (patch: Partial<typeof value>) =>
              change({ ways: { ...draft.ways, [way]: { ...value, ...patch } } });
            return (
              <Stack key={way} gap={6} data-testid={`rt-way-${way}`}>
                <Checkbox
                  label={t(`rtWay_${way}`)}
                  checked={value.on}
                  onChange={(event) => setWay({ on: event.currentTarget.checked })}
                  data-testid={`rt-way-on-${way}`}
                />
                {value.on && (
                  <MultiSelect
                    label={`${t('rtCompanies')}: ${t(`rtWay_${way}`)}`}
                    data={companies}
                    value={value.companyIds}
                    onChange={(companyIds) => setWay({ companyIds })}
                    error={wayError(fieldErrors, draft, way)}
                    searchable
                    data-testid={`rt-way-companies-${way}`}
                  />
                )}
              </Stack>
            );
          })}
        </SimpleGrid>
        {waysOn(draft).length === 0 && (
          <Text size="sm" fw={600} mt="xs" data-testid="rt-no-ways">
            {t('rtNoWays')}
          </Text>
        )}
      </Card>

      <Card withBorder data-testid="rt-auto">
        <Stack gap="sm">
          <Switch
            label={t('rtAutoApprove')}
            description={t('rtAutoApproveHint')}
            checked={draft.autoApprove}
            onChange={(event) => change({ autoApprove: event.currentTarget.checked })}
            data-testid="rt-auto-approve"
          />
          {draft.autoApprove && (
            <SimpleGrid cols={{ base: 1, md: 3 }}>
              <MultiSelect
                label={t('rtAutoReasons')}
                data={RETURN_REASONS.map((reason) => ({ value: reason, label: t(`rtReason_${reason}`) }))}
                value={draft.reasons}
                onChange={(reasons) => change({ reasons: reasons as ReturnReason[] })}
                error={errorAt(fieldErrors, 'autoApprove.reasons')}
                data-testid="rt-auto-reasons"
              />
              <NumberInput
                label={t('rtAutoMaxValue')}
                min={0}
                value={draft.maxGoodsValue}
                onChange={(value) => change({ maxGoodsValue: value })}
                error={errorAt(fieldErrors, 'autoApprove.maxGoodsValue')}
                data-testid="rt-auto-max-value"
              />
              <NumberInput
                label={t('rtAutoWithinDays')}
                min={0}
                max={365}
                allowDecimal={false}
                value={draft.withinDays}
                onChange={(value) => change({ withinDays: value })}
                error={errorAt(fieldErrors, 'autoApprove.withinDays')}
                data-testid="rt-auto-within-days"
              />
            </SimpleGrid>
          )}
        </Stack>
      </Card>

      <Group>
        <Button onClick={() => void save()} disabled={!changed} loading={busy} data-testid="rt-save">
          {t('rtSave')}
        </Button>
        {changed && (
          <Text size="sm" fw={600} role="status" data-testid="rt-unsaved">
            {t('rtUnsaved')}
          </Text>
        )}
        {done && (
          <Text size="sm" c="teal.9" role="status" data-testid="rt-saved">
            {t('saved')}
          </Text>
        )}
      </Group>
      <ApiError error={saveError} />

      <Card withBorder>
        <CopyValue label={t('rtPageUrl')} hint={t('rtPageUrlHint')} value={saved.pageUrl} testId="rt-page-url" />
      </Card>
    </Stack>
  );
}

export function ReturnSettingsPage() {
  return (
    <ShopSettingsPage
      title="rtSettings"
      hint="rtSettingsHint"
      selectTestId="rt-shop"
      editor={(shopId) => <ShopReturnSettings shopId={shopId} />}
    />
  );
}
