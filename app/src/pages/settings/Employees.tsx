/** Employees (owners only): invite with an e-mail and a first password, the role and a manager's shops; change; remove (their sign-ins end at once). */
import {
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useText } from '../../i18n';
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

function EmployeeRow({ employee, changed }: { employee: Employee; changed(): void }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const [editing, setEditing] = useState(false);
  const [role, setRole] = useState<Role>(employee.role);
  const [shopIds, setShopIds] = useState(employee.shopIds.map(String));
  const [error, setError] = useState<unknown>(null);
  const shopName = (id: number) => reference?.shops.find((shop) => shop.id === id)?.name ?? `#${id}`;

  const run = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      setEditing(false);
      changed();
    } catch (caught) {
      setError(caught);
    }
  };
  const save = () =>
    run(async () =>
      ok(
        await api.PUT('/v2/employees/{id}', {
          params: { path: { id: employee.id } },
          body: { role, shopIds: role === 'manager' ? shopIds.map(Number) : [] },
        }),
      ),
    );
  const remove = () =>
    run(async () => ok(await api.DELETE('/v2/employees/{id}', { params: { path: { id: employee.id } } })));

  return (
    <Table.Tr data-testid={`employee-${employee.email}`}>
      <Table.Td>{employee.name}</Table.Td>
      <Table.Td>{employee.email}</Table.Td>
      <Table.Td>
        {editing ? (
          <Stack gap="xs">
            <RoleAndShops role={role} shopIds={shopIds} onRole={setRole} onShops={setShopIds} />
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
        <ApiError error={error} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {editing ? (
            <>
              <Button size="xs" onClick={() => void save()}>
                {t('applyChanges')}
              </Button>
              <Button size="xs" variant="default" onClick={() => setEditing(false)}>
                {t('dismiss')}
              </Button>
            </>
          ) : (
            <>
              <Button size="xs" variant="default" onClick={() => setEditing(true)}>
                {t('edit')}
              </Button>
              <Button size="xs" color="red" variant="light" onClick={() => void remove()}>
                {t('remove')}
              </Button>
            </>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function EmployeesPage() {
  const { t } = useText();
  const [employees, setEmployees] = useState<Employee[]>([]);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => {
    api.GET('/v2/employees').then(
      (result) => {
        try {
          setEmployees(ok(result));
          setError(null);
        } catch (caught) {
          setError(caught);
        }
      },
      () => undefined,
    );
  }, []);
  useEffect(load, [load]);

  return (
    <Stack>
      <Title order={2}>{t('employees')}</Title>
      <ApiError error={error} />
      <InviteForm invited={load} />
      <Table.ScrollContainer minWidth={600}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('name')}</Table.Th>
              <Table.Th>{t('email')}</Table.Th>
              <Table.Th>{t('role')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('edit')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {employees.map((employee) => (
              <EmployeeRow
                key={`${employee.id}-${employee.role}-${employee.shopIds.join(',')}`}
                employee={employee}
                changed={load}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
