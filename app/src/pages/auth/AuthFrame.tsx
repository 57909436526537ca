/** The frame of the signed-out pages (sign-in, the one-time links): a card in the middle, the app's name. */
import {
  Alert,
  Anchor,
  Code,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  Center,
  Button,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api';
import { useText } from '../../i18n';

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useText();
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w={420} maw="100%" component="main">
        <Stack>
          <Text fw={700}>{t('appName')}</Text>
          <Title order={1} size="h3">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

export function BackToSignIn() {
  const { t } = useText();
  return (
    <Anchor component={Link} to="/" size="sm">
      {t('backToSignIn')}
    </Anchor>
  );
}

/** The QR code and key of a second factor being set up, and the field for its first code. */
export function SecondFactorSetupFields({
  setup,
  code,
  onCode,
}: {
  setup: Schemas['SecondFactorSetup'];
  code: string;
  onCode(code: string): void;
}) {
  const { t } = useText();
  return (
    <Stack gap="xs" data-testid="second-factor-setup">
      <Text size="sm">{t('secondFactorSetupHint')}</Text>
      <Image src={setup.qrCode} alt={t('qrCode')} w={180} h={180} />
      <Text size="sm">
        {t('secretKey')}: <Code data-testid="second-factor-secret">{setup.secret}</Code>
      </Text>
      <TextInput
        label={t('code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(event) => onCode(event.currentTarget.value)}
      />
    </Stack>
  );
}

/** Recovery codes, shown once, and the button that goes on. */
export function RecoveryCodes({ codes, onContinue }: { codes: string[]; onContinue(): void }) {
  const { t } = useText();
  return (
    <Stack data-testid="recovery-codes">
      <Alert color="yellow" title={t('recoveryCodesTitle')}>
        {t('recoveryCodesHint')}
      </Alert>
      <SimpleGrid cols={2} spacing="xs">
        {codes.map((code) => (
          <Code key={code}>{code}</Code>
        ))}
      </SimpleGrid>
      <Button onClick={onContinue}>{t('continue')}</Button>
    </Stack>
  );
}
