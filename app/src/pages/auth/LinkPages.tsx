/**
 * The pages a one-time link opens (the token is the address's fragment, which no server sees;
 * it is taken off the address bar at once): set-up of the first owner, an invitation, a password
 * reset, a sign-up's confirmation; and the pages that ask for a link (forgot password, sign-up).
 * A link that signs in adopts the session and opens the dashboard.
 */
import { Alert, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { api, DeliveryApiError, ok, type Schemas } from '../../api';
import { useText } from '../../i18n';
import { type SessionView, useSession } from '../../session';
import { AuthFrame, BackToSignIn, RecoveryCodes } from './AuthFrame';
import { CodeField, EmailField, NewPasswordField, type Submit, SubmitWithError, useSubmit } from './fields';

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

/**
 * A link's form that signs in: what the link is, and a submit whose `start` posts the link's token
 * and answers the session it started (undefined: not started, the page asks for more).
 */
function useLinkForm(
  purpose: Purpose,
  start: (token: string, view: Schemas['LinkView'] | null | undefined) => Promise<SessionView | undefined>,
) {
  const { token, view } = useLink(purpose);
  const signedIn = useSignedIn();
  const form = useSubmit(async () => {
    const session = await start(token, view);
    if (session) signedIn.done(session);
  });
  return { view, form, codes: signedIn.codes };
}

/** A form of the link pages: the hint, the hidden user name a password manager files it under, the fields, the submit. */
function LinkForm(props: {
  form: Submit;
  hint: ReactNode;
  username?: string;
  submitLabel: string;
  submitTestId?: string;
  children?: ReactNode;
}) {
  return (
    <form onSubmit={props.form.submit}>
      <Stack>
        <Text size="sm">{props.hint}</Text>
        {props.username !== undefined && (
          <input type="email" hidden readOnly autoComplete="username" value={props.username} />
        )}
        {props.children}
        <SubmitWithError form={props.form} testId={props.submitTestId}>
          {props.submitLabel}
        </SubmitWithError>
      </Stack>
    </form>
  );
}

/** The page's form until the link is sent, then that it is. */
function SentOr({ sent, message, children }: { sent: boolean; message: string; children: ReactNode }) {
  return sent ? (
    <Alert color="green" role="status" data-testid="link-sent">
      {message}
    </Alert>
  ) : (
    <>{children}</>
  );
}

export function SetupPage() {
  const { t } = useText();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const { view, form } = useLinkForm('setup', async (token) =>
    ok(await api.POST('/v2/auth/setup', { body: { token, email, password, name } })),
  );
  return (
    <AuthFrame title={t('setupTitle')}>
      <LinkState view={view}>
        <LinkForm
          form={form}
          hint={t('setupHint', { account: view?.accountName ?? '' })}
          submitLabel={t('setPasswordAndSignIn')}
          submitTestId="link-submit"
        >
          <TextInput label={t('yourName')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
          <EmailField value={email} onChange={setEmail} />
          <NewPasswordField value={password} onChange={setPassword} />
        </LinkForm>
      </LinkState>
    </AuthFrame>
  );
}

export function InvitePage() {
  const { t } = useText();
  const [password, setPassword] = useState('');
  const { view, form, codes } = useLinkForm('invitation', async (token) =>
    ok(await api.POST('/v2/auth/invitation', { body: { token, password } })),
  );
  return (
    <AuthFrame title={t('inviteTitle', { account: view?.accountName ?? '' })}>
      <LinkState view={view}>
        {codes ?? (
          <LinkForm
            form={form}
            hint={t('inviteHint', { email: view?.email ?? '' })}
            username={view?.email ?? ''}
            submitLabel={t('setPasswordAndSignIn')}
            submitTestId="link-submit"
          >
            <NewPasswordField value={password} onChange={setPassword} />
          </LinkForm>
        )}
      </LinkState>
    </AuthFrame>
  );
}

export function ResetPage() {
  const { t } = useText();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const { view, form } = useLinkForm('reset', async (token) => {
    try {
      const body = { token, password, ...(needsCode ? { code } : {}) };
      return ok(await api.POST('/v2/auth/password-reset/confirm', { body }));
    } catch (caught) {
      if (!(caught instanceof DeliveryApiError && caught.code === 'second_factor_required')) throw caught;
      setNeedsCode(true);
      return undefined;
    }
  });
  return (
    <AuthFrame title={t('resetTitle')}>
      <LinkState view={view}>
        <LinkForm
          form={form}
          hint={t('resetHint', { email: view?.email ?? '' })}
          username={view?.email ?? ''}
          submitLabel={t('setPasswordAndSignIn')}
          submitTestId="link-submit"
        >
          <NewPasswordField value={password} onChange={setPassword} />
          {needsCode && <CodeField value={code} onChange={setCode} />}
        </LinkForm>
      </LinkState>
    </AuthFrame>
  );
}

export function ForgotPage() {
  const { t } = useText();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useSubmit(async () => {
    ok(await api.POST('/v2/auth/password-reset', { body: { email } }));
    setSent(true);
  });
  return (
    <AuthFrame title={t('forgotTitle')}>
      <SentOr sent={sent} message={t('linkSent')}>
        <LinkForm form={form} hint={t('forgotHint')} submitLabel={t('sendLink')} submitTestId="send-link">
          <EmailField value={email} onChange={setEmail} />
        </LinkForm>
      </SentOr>
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
  const form = useSubmit(async () => {
    ok(await api.POST('/v2/auth/signup', { body: { email, password, accountName } }));
    setSent(true);
  });
  return (
    <AuthFrame title={t('signUp')}>
      <SentOr sent={sent} message={t('checkYourMail')}>
        <LinkForm form={form} hint={t('signUpHint')} submitLabel={t('signUp')}>
          <TextInput
            label={t('accountName')}
            required
            value={accountName}
            onChange={(event) => setAccountName(event.currentTarget.value)}
          />
          <EmailField value={email} onChange={setEmail} />
          <NewPasswordField value={password} onChange={setPassword} />
        </LinkForm>
      </SentOr>
      <BackToSignIn />
    </AuthFrame>
  );
}

function ConfirmSignUp() {
  const { t } = useText();
  const [password, setPassword] = useState('');
  const { view, form } = useLinkForm('signup', async (token, link) =>
    ok(
      await api.POST('/v2/auth/signup/confirm', {
        body: { token, ...(link?.needsPassword ? { password } : {}) },
      }),
    ),
  );
  return (
    <AuthFrame title={t('confirmSignUpTitle')}>
      <LinkState view={view}>
        <LinkForm
          form={form}
          hint={t('confirmSignUpHint', { account: view?.accountName ?? '', email: view?.email ?? '' })}
          submitLabel={t('confirmAndSignIn')}
          submitTestId="link-submit"
        >
          {view?.needsPassword && <NewPasswordField value={password} onChange={setPassword} />}
        </LinkForm>
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
