/**
 * The buyer-messages settings as cards: one per channel (on or off, its moments, SMS's gateway
 * and credentials, Telegram's bot) and one for what every channel shares (language, quiet hours,
 * the e-mails' brand, sandbox orders). They edit the page's draft and call no API; the refusal's
 * field errors come in by field name and are shown beside their field.
 */
import {
  Anchor,
  Badge,
  Card,
  Checkbox,
  ColorInput,
  Group,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { type TextKey, useText } from '../../../i18n';
import {
  type Channel,
  type ChannelDraft,
  type Gateway,
  type Language,
  MOMENTS,
  momentsOf,
  problemAt,
  type Settings,
  type SettingsDraft,
  smsConnected,
} from './messages-model';

interface CardProps {
  draft: SettingsDraft;
  saved: Settings;
  fieldErrors: Record<string, string>;
  onChange(draft: SettingsDraft): void;
}

function ChannelCard(props: {
  channel: Channel;
  value: ChannelDraft;
  onChange(value: ChannelDraft): void;
  status?: ReactNode;
  error?: string;
  children?: ReactNode;
}) {
  const { t } = useText();
  const { channel, value } = props;
  return (
    <Card withBorder data-testid={`bm-channel-${channel}`}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {t(`bmChannel_${channel}` as TextKey)}
        </Title>
        {props.status}
      </Group>
      <Stack gap="sm">
        <Switch
          label={t(`bmEnabled_${channel}` as TextKey)}
          checked={value.enabled}
          onChange={(event) => props.onChange({ ...value, enabled: event.currentTarget.checked })}
          data-testid={`bm-enabled-${channel}`}
        />
        <Checkbox.Group
          label={t('bmMoments')}
          value={value.moments}
          onChange={(ticked) => props.onChange({ ...value, moments: momentsOf(ticked) })}
          error={props.error}
        >
          <Stack gap={6} mt={4}>
            {MOMENTS.map((moment) => (
              <Checkbox
                key={moment}
                value={moment}
                label={t(`moment_${moment}` as TextKey)}
                data-testid={`bm-moment-${channel}-${moment}`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        {props.children}
      </Stack>
    </Card>
  );
}

function Connected({ connected }: { connected: boolean }) {
  const { t } = useText();
  return (
    <Badge color={connected ? 'teal.9' : 'gray.7'} data-testid="bm-connected" data-connected={String(connected)}>
      {t(connected ? 'connected' : 'bmNotConnected')}
    </Badge>
  );
}

export function ChannelCards({ draft, saved, fieldErrors, onChange }: CardProps) {
  const { t } = useText();
  const { sms, telegram } = draft;
  const connected = smsConnected(draft, saved);
  // a credential field left empty keeps the saved one, unless the gateway was changed (its keys are gone then)
  const secretHint = connected ? t('bmKeepSecret') : saved.sms.configured ? t('bmNewGatewaySecret') : undefined;
  const setSms = (change: Partial<SettingsDraft['sms']>) => onChange({ ...draft, sms: { ...sms, ...change } });
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      <ChannelCard
        channel="email"
        value={draft.email}
        onChange={(email) => onChange({ ...draft, email })}
        error={problemAt(fieldErrors, 'email')}
      />
      <ChannelCard
        channel="sms"
        value={sms}
        onChange={(value) => setSms(value)}
        status={<Connected connected={connected} />}
        error={problemAt(fieldErrors, 'sms.moments')}
      >
        <Select
          label={t('bmGateway')}
          placeholder={t('bmGatewayNone')}
          value={sms.gateway}
          onChange={(gateway) => setSms({ gateway: gateway === 'smsru' || gateway === 'smsc' ? gateway : null })}
          data={[
            { value: 'smsru' satisfies Gateway, label: 'SMS.ru' },
            { value: 'smsc' satisfies Gateway, label: 'SMSC.ru' },
          ]}
          allowDeselect={false}
          data-testid="bm-sms-gateway"
        />
        <TextInput
          label={t('bmSender')}
          description={t('bmSenderHint')}
          value={sms.sender}
          maxLength={11}
          onChange={(event) => setSms({ sender: event.currentTarget.value })}
          error={problemAt(fieldErrors, 'sms.sender')}
          data-testid="bm-sms-sender"
        />
        {sms.gateway === 'smsru' && (
          <PasswordInput
            label={t('bmApiId')}
            description={secretHint}
            value={sms.apiId}
            onChange={(event) => setSms({ apiId: event.currentTarget.value })}
            // the gateway's refusal names the channel ("sms"): it is about the key
            error={fieldErrors.sms ?? problemAt(fieldErrors, 'sms.apiId')}
            autoComplete="off"
            data-testid="bm-sms-api-id"
          />
        )}
        {sms.gateway === 'smsc' && (
          <>
            <PasswordInput
              label={t('bmLogin')}
              description={secretHint}
              value={sms.login}
              onChange={(event) => setSms({ login: event.currentTarget.value })}
              error={problemAt(fieldErrors, 'sms.login')}
              autoComplete="off"
              data-testid="bm-sms-login"
            />
            <PasswordInput
              label={t('bmPassword')}
              description={secretHint}
              value={sms.password}
              onChange={(event) => setSms({ password: event.currentTarget.value })}
              error={fieldErrors.sms ?? problemAt(fieldErrors, 'sms.password')}
              autoComplete="off"
              data-testid="bm-sms-password"
            />
          </>
        )}
        {sms.gateway === null && fieldErrors.sms && (
          <Text size="sm" className="input-error" role="alert">
            {fieldErrors.sms}
          </Text>
        )}
      </ChannelCard>
      <ChannelCard
        channel="telegram"
        value={telegram}
        onChange={(value) => onChange({ ...draft, telegram: { ...telegram, ...value } })}
        status={<Connected connected={saved.telegram.botUsername !== null} />}
        error={problemAt(fieldErrors, 'telegram.moments')}
      >
        <PasswordInput
          label={t('bmBotToken')}
          description={saved.telegram.botUsername ? t('bmKeepSecret') : undefined}
          value={telegram.botToken}
          onChange={(event) => onChange({ ...draft, telegram: { ...telegram, botToken: event.currentTarget.value } })}
          error={problemAt(fieldErrors, 'telegram.botToken')}
          autoComplete="off"
          data-testid="bm-telegram-token"
        />
        {saved.telegram.botUsername && (
          <Text size="sm" data-testid="bm-telegram-bot">
            {t('bmBot')}{' '}
            <Anchor href={`https://t.me/${saved.telegram.botUsername}`} target="_blank" rel="noopener noreferrer">
              @{saved.telegram.botUsername}
            </Anchor>
          </Text>
        )}
        <Text size="sm" c="gray.7">
          {t('bmBotNote')}
        </Text>
      </ChannelCard>
    </SimpleGrid>
  );
}

export function GeneralCard({ draft, fieldErrors, onChange }: Omit<CardProps, 'saved'>) {
  const { t } = useText();
  const set = (change: Partial<SettingsDraft>) => onChange({ ...draft, ...change });
  return (
    <Card withBorder data-testid="bm-general">
      <Title order={3} size="h5" mb="xs">
        {t('bmGeneral')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Stack gap="sm">
          <Select
            label={t('bmLanguage')}
            value={draft.language}
            onChange={(language) => language && set({ language: language as Language })}
            data={(['ru', 'en'] as const).map((language) => ({
              value: language,
              label: t(`bmLanguage_${language}` as TextKey),
            }))}
            allowDeselect={false}
            data-testid="bm-language"
          />
          <ColorInput
            label={t('bmBrandColor')}
            value={draft.color}
            onChange={(color) => set({ color })}
            format="hex"
            withEyeDropper={false}
            error={problemAt(fieldErrors, 'brand.color')}
            data-testid="bm-color"
          />
          <TextInput
            label={t('bmLogoUrl')}
            value={draft.logoUrl}
            placeholder="https://"
            onChange={(event) => set({ logoUrl: event.currentTarget.value })}
            error={problemAt(fieldErrors, 'brand.logoUrl')}
            data-testid="bm-logo"
          />
        </Stack>
        <Stack gap="sm">
          <Text size="sm" fw={500}>
            {t('bmQuietHours')}
          </Text>
          <Switch
            label={t('bmAnyHour')}
            checked={draft.anyHour}
            onChange={(event) => set({ anyHour: event.currentTarget.checked })}
            data-testid="bm-any-hour"
          />
          <Group grow align="start">
            <TextInput
              type="time"
              label={t('bmQuietFrom')}
              value={draft.quietFrom}
              disabled={draft.anyHour}
              onChange={(event) => set({ quietFrom: event.currentTarget.value })}
              error={problemAt(fieldErrors, 'quietHours.from')}
              data-testid="bm-quiet-from"
            />
            <TextInput
              type="time"
              label={t('bmQuietTo')}
              value={draft.quietTo}
              disabled={draft.anyHour}
              onChange={(event) => set({ quietTo: event.currentTarget.value })}
              error={problemAt(fieldErrors, 'quietHours.to')}
              data-testid="bm-quiet-to"
            />
          </Group>
          <Switch
            label={t('bmSandbox')}
            description={t('bmSandboxHint')}
            checked={draft.sandbox}
            onChange={(event) => set({ sandbox: event.currentTarget.checked })}
            data-testid="bm-sandbox"
          />
        </Stack>
      </SimpleGrid>
    </Card>
  );
}
