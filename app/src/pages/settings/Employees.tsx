/**
 * Employees (owners only): invite by e-mail with the role and a manager's shops (a link to choose
 * a password); the invitations not accepted yet, sent again or withdrawn; change; remove (their
 * sign-ins end at once); whether every employee must sign in with a second factor.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  SegmentedControl,
  Switch,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { useText } from '../../i18n';
import { useList } from '../../hooks/use-list';
import { useReference } from '../../reference';
import { formatInstant } from '../../format';
import { useSignedIn } from '../../session';

type Employee = Schemas['Employee'];
type Role = Employee['role'];

function RoleAndShops({
  role,
  shopIds,
  onRole,
  onShops,
}: {
  role: Role;
  shopIds: string[];
  onRole(role: Role): void;
  onShops(ids: string[]): void;
}) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  return (
    <>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="role-label">
          {t('role')}
        </Text>
        <SegmentedControl
          aria-labelledby="role-label"
          value={role}
          onChange={(value) => onRole(value === 'manager' ? 'manager' : 'owner')}
          data={[
            { value: 'owner', label: t('owner') },
            { value: 'manager', label: t('manager') },
          ]}
        />
      </Stack>
      {role === 'manager' && (
        <MultiSelect
          label={t('shops')}
          value={shopIds}
          onChange={onShops}
          data={(reference?.shops ?? []).map((shop) => ({ value: String(shop.id), label: shop.name }))}
          data-testid="employee-shops"
        />
      )}
    </>
  );
}

function InviteForm({ invited }: { invited(): void }) {
  const { t } = useText();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('manager');
  const [shopIds, setShopIds] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const invite = async () => {
    setBusy(true);
    setError(null);
    try {
      ok(
        await api.POST('/v2/employees', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: { name, email, role, shopIds: role === 'manager' ? shopIds.map(Number) : [] },
        }),
      );
      setName('');
      setEmail('');
      setShopIds([]);
      invited();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('inviteEmployee')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput label={t('name')} value={name} onChange={(event) => setName(event.currentTarget.value)} />
        <TextInput
          label={t('email')}
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <RoleAndShops role={role} shopIds={shopIds} onRole={setRole} onShops={setShopIds} />
      </SimpleGrid>
      <Text size="sm" mt="xs">
        {t('invitationSentNote')}
      </Text>
      <Group mt="sm">
        <Button onClick={() => void invite()} loading={busy} data-testid="invite">
          {t('invite')}
        </Button>
      </Group>
      <ApiError error={error} />
    </Card>
  );
}

/** One employee's role and shops being changed. */
interface Editing {
  id: number;
  role: Role;
  shopIds: string[];
}

function Invitations({ generation, shopName }: { generation: number; shopName(id: number): string }) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const invitations = useList(() => api.GET('/v2/employees/invitations'), `invitations-${generation}`);
  const [error, setError] = useState<unknown>(null);
  const act = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      invitations.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  if (!invitations.data?.length) return <ApiError error={invitations.error} />;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {t('pendingInvitations')}
      </Title>
      <ApiError error={invitations.error ?? error} />
      <DataTable
        rows={invitations.data}
        rowKey={(invitation) => invitation.id}
        rowProps={(invitation) => ({ 'data-testid': `invitation-${invitation.email}` })}
        labels={{ empty: t('nothingYet') }}
        columns={[
          { key: 'email', header: t('email'), cell: (invitation) => invitation.email },
          {
            key: 'role',
            header: t('role'),
            cell: (invitation) => (
              <Group gap={4}>
                <Badge color={invitation.role === 'owner' ? 'indigo' : 'teal.9'}>{t(invitation.role)}</Badge>
                {invitation.shopIds.map((id) => (
                  <Badge key={id} variant="outline" color="gray.8">
                    {shopName(id)}
                  </Badge>
                ))}
                {invitation.expired && <Badge color="red.9">{t('expired')}</Badge>}
              </Group>
            ),
          },
          {
            key: 'expires',
            header: t('linkValidUntil'),
            cell: (invitation) => formatInstant(invitation.expiresAt, locale, session.timeZone),
          },
          {
            key: 'actions',
            header: <VisuallyHidden>{t('edit')}</VisuallyHidden>,
            cell: (invitation) => (
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="default"
                  onClick={() =>
                    void act(async () =>
                      ok(
                        await api.POST('/v2/employees/invitations/{id}/resend', {
                          params: { path: { id: invitation.id } },
                        }),
                      ),
                    )
                  }
                >
                  {t('resend')}
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  onClick={() =>
                    void act(async () =>
                      ok(
                        await api.DELETE('/v2/employees/invitations/{id}', { params: { path: { id: invitation.id } } }),
                      ),
                    )
                  }
                >
                  {t('withdraw')}
                </Button>
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}

function SecondFactorPolicy() {
  const { t } = useText();
  const policy = useList(() => api.GET('/v2/employees/security'), 'security-policy');
  const [error, setError] = useState<unknown>(null);
  const change = async (secondFactorRequired: boolean) => {
    setError(null);
    try {
      ok(await api.PUT('/v2/employees/security', { body: { secondFactorRequired } }));
      policy.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Card withBorder>
      <Switch
        label={t('requireSecondFactor')}
        description={t('requireSecondFactorHint')}
        checked={policy.data?.secondFactorRequired ?? false}
        disabled={!policy.data}
        onChange={(event) => void change(event.currentTarget.checked)}
        data-testid="require-second-factor"
      />
      <ApiError error={policy.error ?? error} />
    </Card>
  );
}

export function EmployeesPage() {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const employees = useList(() => api.GET('/v2/employees'), 'employees');
  const [invited, setInvited] = useState(0);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [rowError, setRowError] = useState<{ id: number; error: unknown } | null>(null);
  const shopName = (id: number) => reference?.shops.find((shop) => shop.id === id)?.name ?? `#${id}`;

  const run = async (id: number, call: () => Promise<unknown>) => {
    setRowError(null);
    try {
      await call();
      setEditing(null);
      employees.reload();
    } catch (caught) {
      setRowError({ id, error: caught });
    }
  };
  const save = (change: Editing) =>
    run(change.id, async () =>
      ok(
        await api.PUT('/v2/employees/{id}', {
          params: { path: { id: change.id } },
          body: { role: change.role, shopIds: change.role === 'manager' ? change.shopIds.map(Number) : [] },
        }),
      ),
    );
  const remove = (id: number) =>
    run(id, async () => ok(await api.DELETE('/v2/employees/{id}', { params: { path: { id } } })));

  return (
    <Stack>
      <Title order={2}>{t('employees')}</Title>
      <ApiError error={employees.error} />
      <InviteForm invited={() => setInvited((value) => value + 1)} />
      <Invitations generation={invited} shopName={shopName} />
      <SecondFactorPolicy />
      <Alert color="gray" title={t('leaverTitle')} data-testid="leaver-note">
        {t('leaverNote')}
      </Alert>
      <DataTable
        rows={employees.data}
        rowKey={(employee) => employee.id}
        rowProps={(employee) => ({ 'data-testid': `employee-${employee.email}` })}
        labels={{ empty: t('nothingYet') }}
        columns={[
          { key: 'name', header: t('name'), cell: (employee) => employee.name },
          { key: 'email', header: t('email'), cell: (employee) => employee.email },
          {
            key: 'role',
            header: t('role'),
            cell: (employee) => (
              <>
                {editing?.id === employee.id ? (
                  <Stack gap="xs">
                    <RoleAndShops
                      role={editing.role}
                      shopIds={editing.shopIds}
                      onRole={(role) => setEditing({ ...editing, role })}
                      onShops={(shopIds) => setEditing({ ...editing, shopIds })}
                    />
                  </Stack>
                ) : (
                  <Group gap={4}>
                    <Badge color={employee.role === 'owner' ? 'indigo' : 'teal.9'}>{t(employee.role)}</Badge>
                    {employee.secondFactor && <Badge color="gray.8">{t('withSecondFactor')}</Badge>}
                    {employee.shopIds.map((id) => (
                      <Badge key={id} variant="outline" color="gray.8">
                        {shopName(id)}
                      </Badge>
                    ))}
                  </Group>
                )}
                {rowError?.id === employee.id && <ApiError error={rowError.error} />}
              </>
            ),
          },
          {
            key: 'actions',
            header: <VisuallyHidden>{t('edit')}</VisuallyHidden>,
            cell: (employee) => (
              <Group gap="xs" wrap="nowrap">
                {editing?.id === employee.id ? (
                  <>
                    <Button size="xs" onClick={() => void save(editing)}>
                      {t('applyChanges')}
                    </Button>
                    <Button size="xs" variant="default" onClick={() => setEditing(null)}>
                      {t('dismiss')}
                    </Button>
                  </>
                ) : (
                  <>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        setEditing({
                          id: employee.id,
                          role: employee.role,
                          shopIds: employee.shopIds.map(String),
                        })
                      }
                    >
                      {t('edit')}
                    </Button>
                    <Button size="xs" color="red" variant="light" onClick={() => void remove(employee.id)}>
                      {t('remove')}
                    </Button>
                  </>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}
