/**
 * What the signed-out pages and the Security page share: a form's submit (busy while waiting, the
 * refusal kept to show), and the e-mail, password and code fields with the autocomplete hints a
 * password manager reads.
 */
import { Button, PasswordInput, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../components/ApiError';
import { useText } from '../../i18n';

export interface Submit {
  submit(event?: FormEvent): Promise<void>;
  error: unknown;
  busy: boolean;
}

/** A form that posts: busy while `work` runs, what it throws kept as the error to show. */
export function useSubmit(work: () => Promise<void>): Submit {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
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

/** The form's refusal, then its submit button. */
export function SubmitWithError({ form, testId, children }: { form: Submit; testId?: string; children: ReactNode }) {
  return (
    <>
      <ApiError error={form.error} />
      <Button type="submit" loading={form.busy} data-testid={testId}>
        {children}
      </Button>
    </>
  );
}

interface Field {
  value: string;
  onChange(value: string): void;
}

/** The e-mail one signs in with (a password manager's user name). */
export function EmailField({ value, onChange }: Field) {
  const { t } = useText();
  return (
    <TextInput
      label={t('email')}
      type="email"
      autoComplete="username"
      required
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** A password one has, under `label`. */
export function CurrentPasswordField({ label, value, onChange }: Field & { label: string }) {
  return (
    <PasswordInput
      label={label}
      autoComplete="current-password"
      required
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}

/** A password being chosen, with the rules it must meet. */
export function NewPasswordField({ value, onChange }: Field) {
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

/** The second factor's code (or a recovery code). */
export function CodeField({ value, onChange, autoFocus, testId }: Field & { autoFocus?: boolean; testId?: string }) {
  const { t } = useText();
  return (
    <TextInput
      label={t('code')}
      description={t('codeHint')}
      autoComplete="one-time-code"
      required
      autoFocus={autoFocus}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data-testid={testId}
    />
  );
}
