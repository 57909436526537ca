/**
 * The fulfilment warehouse staff's screen (their only one): supplies coming to their warehouse,
 * marked arrived, then accepted with the counted and damaged units per line; and returned
 * parcels, scanned and inspected line by line (ReturnedParcels.tsx). Staff have no
 * e-mail login: they paste their operator token (opr_, from the CLI), kept in this page's
 * memory only (gone at reload) and sent as a Bearer token; the API refuses it everywhere else.
 */
import {
  Badge,
  Button,
  Card,
  Group,
  NumberInput,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatDay } from '../../format';
import { useText } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { ReturnedParcels } from './ReturnedParcels';

type Supply = Schemas['Supply'];
type Counts = Record<string, { accepted: number | string; damaged: number | string }>;

const lineKey = (line: Supply['products'][number]) => `${line.id}|${line.batch ?? ''}`;

function Acceptance({ supply, token, done }: { supply: Supply; token: string; done(): void }) {
  const { t, locale } = useText();
  const [counts, setCounts] = useState<Counts>(() =>
    Object.fromEntries(supply.products.map((line) => [lineKey(line), { accepted: line.count, damaged: 0 }])),
  );
  const [comment, setComment] = useState('');
  const action = useAction();
  const error = action.error;
  const headers = { authorization: `Bearer ${token}` };
  const run = async (call: () => Promise<unknown>) => {
    if (!(await action.run(call))) return;
    done();
  };
  const arrived = () =>
    run(async () =>
      ok(
        await api.POST('/v2/fulfilment/operator/supplies/{id}/arrived', {
          params: { path: { id: supply.id }, header: { 'Idempotency-Key': idempotencyKey() } },
          headers,
        }),
      ),
    );
  const accept = () =>
    run(async () =>
      ok(
        await api.POST('/v2/fulfilment/operator/supplies/{id}/accepted', {
          params: { path: { id: supply.id }, header: { 'Idempotency-Key': idempotencyKey() } },
          headers,
          body: {
            products: supply.products.map((line) => ({
              id: line.id,
              batch: line.batch,
              accepted: Number(counts[lineKey(line)]?.accepted ?? 0),
              damaged: Number(counts[lineKey(line)]?.damaged ?? 0),
            })),
            comment: comment || null,
          },
        }),
      ),
    );
  const set = (key: string, field: 'accepted' | 'damaged', value: number | string) =>
    setCounts({ ...counts, [key]: { ...counts[key], [field]: value } });

  return (
    <Card withBorder data-testid={`staff-supply-${supply.id}`}>
      <Group justify="space-between">
        <Title order={3} size="h5">
          № {supply.id} · {formatDay(supply.date, locale)} · {supply.countPlaces} {t('places')}
        </Title>
        <Badge variant="light">{supply.statusHistory[0]?.name}</Badge>
      </Group>
      <Table mt="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('product')}</Table.Th>
            <Table.Th>{t('count')}</Table.Th>
            <Table.Th>{t('accepted')}</Table.Th>
            <Table.Th>{t('damaged')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {supply.products.map((line) => (
            <Table.Tr key={lineKey(line)}>
              <Table.Td>
                {line.vendorCode} — {line.name}
                {line.batch && <Text size="xs">{line.batch}</Text>}
              </Table.Td>
              <Table.Td>{line.count}</Table.Td>
              <Table.Td>
                <NumberInput
                  aria-label={`${t('accepted')} ${line.vendorCode}`}
                  min={0}
                  value={counts[lineKey(line)]?.accepted}
                  onChange={(value) => set(lineKey(line), 'accepted', value)}
                  disabled={supply.status !== 3}
                />
              </Table.Td>
              <Table.Td>
                <NumberInput
                  aria-label={`${t('damaged')} ${line.vendorCode}`}
                  min={0}
                  value={counts[lineKey(line)]?.damaged}
                  onChange={(value) => set(lineKey(line), 'damaged', value)}
                  disabled={supply.status !== 3}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {supply.status === 3 && (
        <TextInput
          mt="xs"
          label={t('staffComment')}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
        />
      )}
      <Group mt="sm">
        {supply.status === 2 && (
          <Button onClick={() => void arrived()} data-testid="mark-arrived">
            {t('arrived')}
          </Button>
        )}
        {supply.status === 3 && (
          <Button onClick={() => void accept()} data-testid="accept-supply">
            {t('accept')}
          </Button>
        )}
      </Group>
      <ApiError error={error} />
    </Card>
  );
}

export function WarehouseStaffPage() {
  const { t } = useText();
  const [typed, setTyped] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const [supplies, setSupplies] = useState<Supply[]>([]);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(async () => {
    if (!token) return;
    setError(null);
    try {
      const answer = ok(
        await api.GET('/v2/fulfilment/operator/supplies', {
          params: { query: { perPage: 100 } },
          headers: { authorization: `Bearer ${token}` },
        }),
      );
      setSupplies(answer.map((item) => item.supply));
    } catch (caught) {
      setError(caught);
    }
  }, [token]);
  useEffect(() => void load(), [load]);

  return (
    <Stack p="md" maw={900} mx="auto" component="main">
      <Title order={1} size="h3">
        {t('warehouseStaff')}
      </Title>
      {!token ? (
        <Group align="end">
          <PasswordInput
            label={t('operatorToken')}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
            w={360}
          />
          <Button onClick={() => setToken(typed.trim())} data-testid="open-staff">
            {t('open')}
          </Button>
        </Group>
      ) : (
        <Button variant="default" onClick={() => void load()} w="fit-content">
          {t('retry')}
        </Button>
      )}
      <ApiError error={error} />
      {token && (
        <Title order={2} size="h4">
          {t('supplies')}
        </Title>
      )}
      {token && supplies.length === 0 && !error && <Text>{t('nothingYet')}</Text>}
      {token &&
        supplies.map((supply) => (
          <Acceptance key={`${supply.id}-${supply.status}`} supply={supply} token={token} done={() => void load()} />
        ))}
      {token && <ReturnedParcels token={token} />}
    </Stack>
  );
}
