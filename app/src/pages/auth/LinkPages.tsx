/**
 * The pages a one-time link opens (the token is the address's fragment, which no server sees;
 * it is taken off the address bar at once): set-up of the first owner, an invitation, a password
 * reset, a sign-up's confirmation; and the pages that ask for a link (forgot password, sign-up).
 * A link that signs in adopts the session and opens the dashboard.
 */
import { Alert, Button, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, DeliveryApiError, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useText } from '../../i18n';
import { type SessionView, useSession } from '../../session';
import { AuthFrame, BackToSignIn, RecoveryCodes } from './AuthFrame';

type Purpose = Schemas['LinkView']['purpose'];

let takenToken: string | null = null;
/** The link's token, taken from the fragment once per page load (the strict mode renders twice). */
function linkToken(): string {
  if (takenToken === null) {
    takenToken = globalThis.location?.hash.slice(1) ?? '';
    if (takenToken) globalThis.history?.replaceState(null, '', globalThis.location.pathname);
  }
  return takenToken;
}

/** What the link is, asked once: undefined while asking, null when it does not work. */
function useLink(purpose: Purpose): { token: string; view: Schemas['LinkView'] | null | undefined } {
  const [token] = useState(linkToken);
  const [view, setView] = useState<Schemas['LinkView'] | null | undefined>(token ? undefined : null);
  useEffect(() => {
    if (!token) return;
    let live = true;
    api.POST('/v2/auth/links/check', { body: { purpose, token } }).then(
      (result) => live && setView(result.data ?? null),
      () => live && setView(null),
    );
    return () => {
      live = false;
    };
  }, [token, purpose]);
  return { token, view };
}

/**
 * Adopts a session a link started: the recovery codes first when it has some, then the
 * dashboard's landing page (the first-run checklist for an owner while a step is left, else the
 * orders), as a sign-in at `/` lands.
 */
function useSignedIn(): { done(view: SessionView): void; codes: ReactNode } {
  const { adopt } = useSession();
  const navigate = useNavigate();
  const [pending, setPending] = useState<SessionView | null>(null);
  const open = (view: SessionView) => {
    adopt(view);
    navigate('/', { replace: true });
  };
  return {
    done: (view) => (view.recoveryCodes?.length ? setPending(view) : open(view)),
    codes: pending?.recoveryCodes ? (
      <RecoveryCodes codes={pending.recoveryCodes} onContinue={() => open(pending)} />
    ) : null,
  };
}

function LinkState({ view, children }: { view: Schemas['LinkView'] | null | undefined; children: ReactNode }) {
  const { t } = useText();
  if (view === undefined)
    return (
      <Stack align="center">
        <Loader aria-label={t('linkChecking')} />
      </Stack>
    );
  if (view === null)
    return (
      <>
        <Alert color="red" role="alert" data-testid="link-invalid">
          {t('linkInvalid')}
        </Alert>
        <BackToSignIn />
      </>
    );
  return <>{children}</>;
}

/** A form that posts, shows the refusal, and busy while waiting. */
function useSubmit(work: () => Promise<void>) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { submit, error, busy };
}

function NewPasswordField({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useText();
  return (
    <PasswordInput
      label={t('newPassword')}
      description={t('passwordRules')}
      autoComplete="new-password"
      required
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data-testid="new-password"
    />
  );
}

export function SetupPage() {
  const { t } = useText();
  const { token, view } = useLink('setup');
  const signedIn = useSignedIn();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { submit, error, busy } = useSubmit(async () =>
    signedIn.done(ok(await api.POST('/v2/auth/setup', { body: { token, email, password, name } }))),
  );
  return (
    <AuthFrame title={t('setupTitle')}>
      <LinkState view={view}>
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">{t('setupHint', { account: view?.accountName ?? '' })}</Text>
            <TextInput label={t('yourName')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
            <TextInput
              label={t('email')}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <NewPasswordField value={password} onChange={setPassword} />
            <ApiError error={error} />
            <Button type="submit" loading={busy} data-testid="link-submit">
              {t('setPasswordAndSignIn')}
            </Button>
          </Stack>
        </form>
      </LinkState>
    </AuthFrame>
  );
}

export function InvitePage() {
  const { t } = useText();
  const { token, view } = useLink('invitation');
  const signedIn = useSignedIn();
  const [password, setPassword] = useState('');
  const { submit, error, busy } = useSubmit(async () =>
    signedIn.done(ok(await api.POST('/v2/auth/invitation', { body: { token, password } }))),
  );
  return (
    <AuthFrame title={t('inviteTitle', { account: view?.accountName ?? '' })}>
      <LinkState view={view}>
        {signedIn.codes ?? (
          <form onSubmit={submit}>
            <Stack>
              <Text size="sm">{t('inviteHint', { email: view?.email ?? '' })}</Text>
              <input type="email" hidden readOnly autoComplete="username" value={view?.email ?? ''} />
              <NewPasswordField value={password} onChange={setPassword} />
              <ApiError error={error} />
              <Button type="submit" loading={busy} data-testid="link-submit">
                {t('setPasswordAndSignIn')}
              </Button>
            </Stack>
          </form>
        )}
      </LinkState>
    </AuthFrame>
  );
}

export function ResetPage() {
  const { t } = useText();
  const { token, view } = useLink('reset');
  const signedIn = useSignedIn();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const { submit, error, busy } = useSubmit(async () => {
    try {
      const body = { token, password, ...(needsCode ? { code } : {}) };
      signedIn.done(ok(await api.POST('/v2/auth/password-reset/confirm', { body })));
    } catch (caught) {
      if (caught instanceof DeliveryApiError && caught.code === 'second_factor_required') setNeedsCode(true);
      else throw caught;
    }
  });
  return (
    <AuthFrame title={t('resetTitle')}>
      <LinkState view={view}>
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">{t('resetHint', { email: view?.email ?? '' })}</Text>
            <input type="email" hidden readOnly autoComplete="username" value={view?.email ?? ''} />
            <NewPasswordField value={password} onChange={setPassword} />
            {needsCode && (
              <TextInput
                label={t('code')}
                description={t('codeHint')}
                autoComplete="one-time-code"
                required
                value={code}
                onChange={(event) => setCode(event.currentTarget.value)}
              />
            )}
            <ApiError error={error} />
            <Button type="submit" loading={busy} data-testid="link-submit">
              {t('setPasswordAndSignIn')}
            </Button>
          </Stack>
        </form>
      </LinkState>
    </AuthFrame>
  );
}

export function ForgotPage() {
  const { t } = useText();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { submit, error, busy } = useSubmit(async () => {
    ok(await api.POST('/v2/auth/password-reset', { body: { email } }));
    setSent(true);
  });
  return (
    <AuthFrame title={t('forgotTitle')}>
      {sent ? (
        <Alert color="green" role="status" data-testid="link-sent">
          {t('linkSent')}
        </Alert>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">{t('forgotHint')}</Text>
            <TextInput
              label={t('email')}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <ApiError error={error} />
            <Button type="submit" loading={busy} data-testid="send-link">
              {t('sendLink')}
            </Button>
          </Stack>
        </form>
      )}
      <BackToSignIn />
    </AuthFrame>
  );
}

/** Without a link: the sign-up form (SIGNUP=open); with one: its confirmation. */
export function SignUpPage() {
  return globalThis.location?.hash.length > 1 || takenToken ? <ConfirmSignUp /> : <SignUpForm />;
}

function SignUpForm() {
  const { t } = useText();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [accountName, setAccountName] = useState('');
  const [sent, setSent] = useState(false);
  const { submit, error, busy } = useSubmit(async () => {
    ok(await api.POST('/v2/auth/signup', { body: { email, password, accountName } }));
    setSent(true);
  });
  return (
    <AuthFrame title={t('signUp')}>
      {sent ? (
        <Alert color="green" role="status" data-testid="link-sent">
          {t('checkYourMail')}
        </Alert>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">{t('signUpHint')}</Text>
            <TextInput
              label={t('accountName')}
              required
              value={accountName}
              onChange={(event) => setAccountName(event.currentTarget.value)}
            />
            <TextInput
              label={t('email')}
              type="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <NewPasswordField value={password} onChange={setPassword} />
            <ApiError error={error} />
            <Button type="submit" loading={busy}>
              {t('signUp')}
            </Button>
          </Stack>
        </form>
      )}
      <BackToSignIn />
    </AuthFrame>
  );
}

function ConfirmSignUp() {
  const { t } = useText();
  const { token, view } = useLink('signup');
  const signedIn = useSignedIn();
  const [password, setPassword] = useState('');
  const { submit, error, busy } = useSubmit(async () =>
    signedIn.done(
      ok(
        await api.POST('/v2/auth/signup/confirm', {
          body: { token, ...(view?.needsPassword ? { password } : {}) },
        }),
      ),
    ),
  );
  return (
    <AuthFrame title={t('confirmSignUpTitle')}>
      <LinkState view={view}>
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">
              {t('confirmSignUpHint', { account: view?.accountName ?? '', email: view?.email ?? '' })}
            </Text>
            {view?.needsPassword && <NewPasswordField value={password} onChange={setPassword} />}
            <ApiError error={error} />
            <Button type="submit" loading={busy} data-testid="link-submit">
              {t('confirmAndSignIn')}
            </Button>
          </Stack>
        </form>
      </LinkState>
    </AuthFrame>
  );
}

/** The signed-out pages by path (outside the layout, whoever is signed in). */
export const SIGNED_OUT_PAGES: Record<string, () => ReactNode> = {
  '/setup': () => <SetupPage />,
  '/invite': () => <InvitePage />,
  '/reset': () => <ResetPage />,
  '/forgot': () => <ForgotPage />,
  '/signup': () => <SignUpPage />,
};
