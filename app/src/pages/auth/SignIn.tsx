/**
 * Sign-in: e-mail and password, then the second factor's code when the employee has one, or its
 * set-up when the owners require one (the QR code, then its first code; the recovery codes are
 * shown once before the dashboard opens). Links to a password reset and, when SIGNUP=open, sign-up.
 */
import { Alert, Anchor, Group, Stack } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, DeliveryApiError, ok, type Schemas } from '../../api';
import { useText } from '../../i18n';
import { pageConfig } from '../../pageConfig';
import { type SessionView, useSession } from '../../session';
import { AuthFrame, RecoveryCodes, SecondFactorSetupFields } from './AuthFrame';
import { CodeField, CurrentPasswordField, EmailField, SubmitWithError, useSubmit } from './fields';

export function SignIn() {
  const { t } = useText();
  const { adopt, ended } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [step, setStep] = useState<'password' | 'code' | 'setup'>('password');
  const [setup, setSetup] = useState<Schemas['SecondFactorSetup'] | null>(null);
  const [started, setStarted] = useState<SessionView | null>(null);

  const form = useSubmit(async () => {
    try {
      const view = ok(
        await api.POST('/v2/auth/session', { body: { email, password, ...(step !== 'password' ? { code } : {}) } }),
      );
      if (view.recoveryCodes?.length) setStarted(view);
      else adopt(view);
    } catch (caught) {
      if (caught instanceof DeliveryApiError && caught.code === 'second_factor_required') setStep('code');
      else if (caught instanceof DeliveryApiError && caught.code === 'second_factor_setup_required') {
        // a refusal of the set-up is the error shown
        setSetup(ok(await api.POST('/v2/auth/second-factor/sign-in-setup', { body: { email, password } })));
        setStep('setup');
      } else throw caught;
    }
  });

  if (started?.recoveryCodes)
    return (
      <AuthFrame title={t('secondFactorSetupTitle')}>
        <RecoveryCodes codes={started.recoveryCodes} onContinue={() => adopt(started)} />
      </AuthFrame>
    );

  return (
    <AuthFrame title={step === 'setup' ? t('secondFactorSetupTitle') : t('signIn')}>
      <form onSubmit={form.submit}>
        <Stack>
          {ended && (
            <Alert color="yellow" data-testid="session-ended">
              {t('sessionEnded')}
            </Alert>
          )}
          {step === 'password' ? (
            <>
              <EmailField value={email} onChange={setEmail} />
              <CurrentPasswordField label={t('password')} value={password} onChange={setPassword} />
            </>
          ) : step === 'code' ? (
            <CodeField value={code} onChange={setCode} autoFocus testId="sign-in-code" />
          ) : (
            setup && (
              <>
                <Alert color="blue">{t('secondFactorRequiredHint')}</Alert>
                <SecondFactorSetupFields setup={setup} code={code} onCode={setCode} />
              </>
            )
          )}
          <SubmitWithError form={form}>{t('signIn')}</SubmitWithError>
          <Group justify="space-between">
            <Anchor component={Link} to="/forgot" size="sm" data-testid="forgot-password">
              {t('forgotPassword')}
            </Anchor>
            {pageConfig().signup === 'open' && (
              <Anchor component={Link} to="/signup" size="sm" data-testid="sign-up-link">
                {t('signUp')}
              </Anchor>
            )}
          </Group>
        </Stack>
      </form>
    </AuthFrame>
  );
}
