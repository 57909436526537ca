/** Where "/" goes: the first-run checklist while a step is left (for an owner), else the orders. */
import { Center, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { api } from '../../api';
import { useText } from '../../i18n';
import type { SessionView } from '../../session';

export function Landing({ session }: { session: SessionView }) {
  const { t } = useText();
  const manager = session.role === 'manager';
  const [target, setTarget] = useState<string | null>(manager ? '/orders' : null);
  useEffect(() => {
    if (manager) return;
    let live = true;
    api.GET('/v2/account/checklist').then(
      (answer) => live && setTarget(answer.data && !answer.data.complete ? '/checklist' : '/orders'),
      () => live && setTarget('/orders'),
    );
    return () => {
      live = false;
    };
  }, [manager]);
  if (!target)
    return (
      <Center h={200}>
        <Loader aria-label={t('loading')} />
      </Center>
    );
  return <Navigate to={target} replace />;
}
