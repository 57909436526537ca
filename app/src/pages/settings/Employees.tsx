/** Employees (owners only): invite with an e-mail and a first password, the role and a manager's shops; change; remove (their sign-ins end at once). */
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
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
  const [password, setPassword] = useState('');
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
          body: { name, email, password, role, shopIds: role === 'manager' ? shopIds.map(Number) : [] },
        }),
      );
      setName('');
      setEmail('');
      setPassword('');
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
        <PasswordInput
          label={t('firstPassword')}
          required
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <RoleAndShops role={role} shopIds={shopIds} onRole={setRole} onShops={setShopIds} />
      </SimpleGrid>
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

export function EmployeesPage() {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const employees = useList(() => api.GET('/v2/employees'), 'employees');
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
      <InviteForm invited={employees.reload} />
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
