import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../components/ApiError';
import { useText } from '../../i18n';
import { useSession } from '../../session';

export function SignIn() {
  const { t } = useText();
  const { signIn, ended } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w={380} component="main">
        <form onSubmit={submit}>
          <Stack>
            <Title order={1} size="h3">
              {t('appName')}
            </Title>
            {ended && (
              <Alert color="yellow" data-testid="session-ended">
                {t('sessionEnded')}
              </Alert>
            )}
            <TextInput
              label={t('email')}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <PasswordInput
              label={t('password')}
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
            />
            <ApiError error={error} />
            <Button type="submit" loading={busy}>
              {t('signIn')}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
