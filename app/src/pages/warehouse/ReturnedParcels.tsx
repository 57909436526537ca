/**
 * Returned parcels on the warehouse staff's screen: the parcels waiting for inspection, a scan
 * (a scanner types the label's track number, or the order number, and Enter) opens one; each
 * line is put back on the shelf, into the defect stock or written off, with a reason. The API
 * records each line once: scanning or submitting again shows the inspection, never a second one.
 */
import { Badge, Button, Card, Group, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useAction } from '../../hooks/use-action';
import { useText, type TextKey } from '../../i18n';

type Parcel = Schemas['ReturnInspection'];
type Outcome = 'stock' | 'defect' | 'write_off';
type Split = Record<
  number,
  { stock: number | string; defect: number | string; write_off: number | string; reason: string }
>;

const OUTCOMES: Outcome[] = ['stock', 'defect', 'write_off'];

function Inspection({ parcel, token, done }: { parcel: Parcel; token: string; done(next: Parcel): void }) {
  const { t } = useText();
  const [split, setSplit] = useState<Split>(() =>
    Object.fromEntries(
      parcel.lines.map((line) => [
        line.productId,
        { stock: line.count, defect: 0, write_off: 0, reason: t('defaultReason') },
      ]),
    ),
  );
  const action = useAction();
  const set = (productId: number, field: keyof Split[number], value: number | string) =>
    setSplit({ ...split, [productId]: { ...split[productId], [field]: value } });
  const inspected = parcel.status === 'done';
  const submit = () =>
    action.run(async () => {
      const lines = parcel.lines.flatMap((line) =>
        OUTCOMES.map((outcome) => ({
          productId: line.productId,
          outcome,
          count: Number(split[line.productId]?.[outcome] ?? 0),
          reason: split[line.productId]?.reason ?? '',
        })).filter((item) => item.count > 0),
      );
      done(
        ok(
          await api.POST('/v2/fulfilment/operator/return-inspections/{orderId}', {
            params: { path: { orderId: parcel.orderId }, header: { 'Idempotency-Key': idempotencyKey() } },
            headers: { authorization: `Bearer ${token}` },
            body: { lines },
          }),
        ),
      );
    });
  const label = (line: Parcel['lines'][number]) => line.vendorCode ?? String(line.productId);

  return (
    <Card withBorder data-testid={`returned-parcel-${parcel.orderId}`}>
      <Group justify="space-between">
        <Title order={3} size="h5">
          № {parcel.orderId}
          {parcel.trackNumber ? ` · ${parcel.trackNumber}` : ''} · {t(`source_${parcel.source}` as TextKey)}
        </Title>
        <Badge variant="filled" color={inspected ? 'teal.9' : 'gray.8'} data-testid="parcel-status">
          {inspected ? t('parcelInspected') : t('parcelWaiting')}
        </Badge>
      </Group>
      <Table.ScrollContainer minWidth={inspected ? 420 : 680} mt="xs">
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('product')}</Table.Th>
              <Table.Th>{t('cameBack')}</Table.Th>
              {inspected ? (
                <Table.Th>{t('parcelInspected')}</Table.Th>
              ) : (
                <>
                  <Table.Th>{t('toStock')}</Table.Th>
                  <Table.Th>{t('toDefect')}</Table.Th>
                  <Table.Th>{t('writeOff')}</Table.Th>
                  <Table.Th>{t('reason')}</Table.Th>
                </>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {parcel.lines.map((line) => (
              <Table.Tr key={line.productId}>
                <Table.Td>
                  {line.vendorCode} — {line.name}
                </Table.Td>
                <Table.Td>{line.count}</Table.Td>
                {inspected ? (
                  <Table.Td data-testid={`outcome-${label(line)}`}>
                    {parcel.outcomes
                      .filter((item) => item.productId === line.productId)
                      .map((item) => `${item.count} ${t(`outcome_${item.outcome}` as TextKey)} (${item.reason})`)
                      .join('; ')}
                  </Table.Td>
                ) : (
                  <>
                    {OUTCOMES.map((outcome) => (
                      <Table.Td key={outcome}>
                        <NumberInput
                          aria-label={`${t(outcome === 'stock' ? 'toStock' : outcome === 'defect' ? 'toDefect' : 'writeOff')} ${label(line)}`}
                          min={0}
                          max={line.count}
                          w={80}
                          value={split[line.productId]?.[outcome]}
                          onChange={(value) => set(line.productId, outcome, value)}
                        />
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <TextInput
                        aria-label={`${t('reason')} ${label(line)}`}
                        value={split[line.productId]?.reason}
                        onChange={(event) => set(line.productId, 'reason', event.currentTarget.value)}
                      />
                    </Table.Td>
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!inspected && (
        <Group mt="sm">
          <Button onClick={() => void submit()} data-testid="inspect-parcel">
            {t('inspect')}
          </Button>
        </Group>
      )}
      <ApiError error={action.error} />
    </Card>
  );
}

export function ReturnedParcels({ token }: { token: string }) {
  const { t } = useText();
  const [waiting, setWaiting] = useState<Parcel[]>([]);
  const [opened, setOpened] = useState<Parcel | null>(null);
  const [code, setCode] = useState('');
  const [notFound, setNotFound] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const list = useCallback(
    async (query: { status?: 'waiting' | 'done'; search?: string }) =>
      ok(
        await api.GET('/v2/fulfilment/operator/return-inspections', {
          params: { query: { perPage: 100, ...query } },
          headers: { authorization: `Bearer ${token}` },
        }),
      ),
    [token],
  );
  const load = useCallback(async () => {
    setError(null);
    try {
      setWaiting(await list({}));
    } catch (caught) {
      setError(caught);
    }
  }, [list]);
  useEffect(() => void load(), [load]);

  // a scanner types fast: the answer to an earlier scan that arrives after a later one's is not shown
  const scans = useRef(0);
  const scan = async () => {
    const search = code.trim();
    if (!search) return;
    const mine = ++scans.current;
    setNotFound(false);
    setError(null);
    setCode('');
    try {
      // a parcel inspected already opens as it was inspected: a second scan never restocks
      const found = (await list({ search }))[0] ?? (await list({ search, status: 'done' }))[0] ?? null;
      if (mine !== scans.current) return;
      setOpened(found);
      setNotFound(found === null);
    } catch (caught) {
      if (mine === scans.current) setError(caught);
    }
  };

  return (
    <Stack data-testid="returned-parcels">
      <Title order={2} size="h4">
        {t('returnedParcels')}
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void scan();
        }}
      >
        <Group align="end">
          <TextInput
            label={t('scanParcel')}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            w={360}
            data-testid="scan-parcel"
          />
          <Button type="submit" variant="default">
            {t('open')}
          </Button>
        </Group>
      </form>
      {notFound && <Text c="red.8">{t('parcelNotFound')}</Text>}
      <ApiError error={error} />
      {opened && (
        <Inspection
          key={`${opened.orderId}-${opened.status}`}
          parcel={opened}
          token={token}
          done={(next) => {
            setOpened(next);
            void load();
          }}
        />
      )}
      {waiting.length === 0 && !error && <Text>{t('nothingYet')}</Text>}
      {waiting.length > 0 && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('parcelNumber')}</Table.Th>
              <Table.Th>{t('parcelTrack')}</Table.Th>
              <Table.Th>{t('parcelSource')}</Table.Th>
              <Table.Th>{t('cameBack')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {waiting.map((parcel) => (
              <Table.Tr key={parcel.orderId} data-testid={`waiting-${parcel.orderId}`}>
                <Table.Td>№ {parcel.orderId}</Table.Td>
                <Table.Td>{parcel.trackNumber}</Table.Td>
                <Table.Td>{t(`source_${parcel.source}` as TextKey)}</Table.Td>
                <Table.Td>{parcel.lines.reduce((sum, line) => sum + line.count, 0)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => setOpened(parcel)}
                    aria-label={`${t('open')} № ${parcel.orderId}`}
                  >
                    {t('open')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
