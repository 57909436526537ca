/**
 * One return (GET /v2/returns/{id}): the decisions its status allows (approve, refuse with the
 * reason the buyer reads, cancel), its lines with their reasons, the buyer's photos, the way
 * back with its point, the money (goods, the way back and who pays it, the refund), the return
 * parcel's order and track once approved, and what the return records of its history (the API
 * keeps no list of its steps: when it was started and by whom, who approved it, its last change).
 */
import {
  Anchor,
  Button,
  Card,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Timeline,
  Title,
} from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, ok, type Order, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatInstant, formatMoney } from '../../format';
import { useAction } from '../../hooks/use-action';
import { type TextKey, useText } from '../../i18n';
import { fileHref, useReference } from '../../reference';
import { useSignedIn } from '../../session';
import {
  decisionsFor,
  RETURN_REASONS,
  RETURN_STATUSES,
  RETURN_WAYS,
  type Return,
  type ReturnDecision,
  wordOf,
} from './return-model';
import { ReturnStatusBadge } from './ReturnStatusBadge';

/** The point's name and address (GET /v2/lists/points?id=), the parcel's order (its track); neither blocks the page. */
function useWayDetails(item: Return | null) {
  const [point, setPoint] = useState<Schemas['PickupPoint'] | null>(null);
  const [parcel, setParcel] = useState<Order | null>(null);
  const pointId = item?.pointId ?? null;
  const parcelOrderId = item?.parcelOrderId ?? null;
  useEffect(() => {
    if (pointId === null) return;
    api.GET('/v2/lists/points', { params: { query: { id: pointId } } }).then(
      (result) => setPoint(result.data?.[0] ?? null),
      () => undefined,
    );
  }, [pointId]);
  useEffect(() => {
    if (parcelOrderId === null) return;
    api.GET('/v2/orders/{id}', { params: { path: { id: parcelOrderId } } }).then(
      (result) => setParcel(result.data ?? null),
      () => undefined,
    );
  }, [parcelOrderId]);
  return { point, parcel };
}

function Decisions({ item, changed }: { item: Return; changed(next: Return): void }) {
  const { t } = useText();
  const action = useAction();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const decisions = decisionsFor(item.status);
  const path = { params: { path: { id: item.id } } };
  const decide = async (decision: ReturnDecision) => {
    setBusy(true);
    await action.run(async () => {
      const next =
        decision === 'approve'
          ? ok(await api.POST('/v2/returns/{id}/approve', path))
          : decision === 'refuse'
            ? ok(await api.POST('/v2/returns/{id}/refuse', { ...path, body: { reason: reason.trim() } }))
            : ok(await api.POST('/v2/returns/{id}/cancel', path));
      changed(next);
    });
    setBusy(false);
  };
  return (
    <Card withBorder data-testid="return-decisions">
      <Title order={3} size="h5" mb="xs">
        {t('rtActions')}
      </Title>
      {decisions.length === 0 && (
        <Text size="sm" c="gray.7">
          {t('rtNoActions')}
        </Text>
      )}
      {item.status === 'refused' && item.refusalReason && (
        <Text size="sm" c="red.9" data-testid="return-refusal">
          {t('rtRefusalShown', { reason: item.refusalReason })}
        </Text>
      )}
      <Stack gap="sm">
        {decisions.includes('refuse') && (
          <Textarea
            label={t('rtRefusalReason')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={1000}
            autosize
            minRows={2}
            maw={560}
            data-testid="return-refusal-reason"
          />
        )}
        <Group gap="xs">
          {decisions.includes('approve') && (
            <Button onClick={() => void decide('approve')} loading={busy} data-testid="return-approve">
              {t('rtApprove')}
            </Button>
          )}
          {decisions.includes('refuse') && (
            <Button
              variant="default"
              color="red"
              onClick={() => void decide('refuse')}
              disabled={busy}
              data-testid="return-refuse"
            >
              {t('rtRefuse')}
            </Button>
          )}
          {decisions.includes('cancel') && (
            <Button variant="default" onClick={() => void decide('cancel')} disabled={busy} data-testid="return-cancel">
              {t('rtCancel')}
            </Button>
          )}
        </Group>
        <ApiError error={action.error} />
      </Stack>
    </Card>
  );
}

function Lines({ item }: { item: Return }) {
  const { t, locale } = useText();
  return (
    <Card withBorder data-testid="return-lines">
      <Title order={3} size="h5" mb="xs">
        {t('rtGoods')}
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('product')}</Table.Th>
              <Table.Th>{t('count')}</Table.Th>
              <Table.Th>{t('rtUnitPrice')}</Table.Th>
              <Table.Th>{t('rtReason')}</Table.Th>
              <Table.Th>{t('rtBuyerComment')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {item.lines.map((line) => (
              <Table.Tr key={line.line} data-testid={`return-line-${line.line}`}>
                <Table.Td>
                  {line.vendorCode ? `${line.vendorCode} — ` : ''}
                  {line.name ?? '—'}
                </Table.Td>
                <Table.Td>{line.count}</Table.Td>
                <Table.Td>{formatMoney(line.price, locale)}</Table.Td>
                <Table.Td>{wordOf(t, 'rtReason_', line.reason, RETURN_REASONS)}</Table.Td>
                <Table.Td>{line.comment ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

function Photos({ photos }: { photos: string[] }) {
  const { t } = useText();
  return (
    <Card withBorder data-testid="return-photos">
      <Title order={3} size="h5" mb="xs">
        {t('rtPhotos')}
      </Title>
      {photos.length === 0 ? (
        <Text size="sm" c="gray.7">
          {t('rtNoPhotos')}
        </Text>
      ) : (
        <Group gap="xs">
          {photos.map((photo, index) => (
            <Anchor
              key={photo}
              href={fileHref(photo)}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="return-photo"
            >
              <Image src={fileHref(photo)} alt={t('rtPhoto', { n: index + 1 })} w={96} h={96} fit="cover" radius="sm" />
            </Anchor>
          ))}
        </Group>
      )}
    </Card>
  );
}

export function ReturnPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const reference = useReference(locale);
  const id = Number(useParams().id);
  const [item, setItem] = useState<Return | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = useCallback(() => {
    api.GET('/v2/returns/{id}', { params: { path: { id } } }).then((result) => {
      try {
        setItem(ok(result));
      } catch (caught) {
        setError(caught);
      }
    }, setError);
  }, [id]);
  useEffect(load, [load]);
  const { point, parcel } = useWayDetails(item);

  if (error) return <ApiError error={error} />;
  if (!item) return <Text>{t('loading')}</Text>;
  const company = reference?.companies.find((known) => known.id === item.companyId)?.name ?? `#${item.companyId}`;
  const when = (iso: string) => formatInstant(iso, locale, session.timeZone);
  const row = (label: string, value: string, testId?: string, bold = false) => (
    <Table.Tr>
      <Table.Td>{label}</Table.Td>
      <Table.Td fw={bold ? 700 : undefined} data-testid={testId}>
        {value}
      </Table.Td>
    </Table.Tr>
  );

  return (
    <Stack gap="md" maw={1100}>
      <Group justify="space-between">
        <Title order={2}>
          {t('rtReturn')} <span data-testid="return-code">{item.code}</span>
        </Title>
        <ReturnStatusBadge status={item.status} size="lg" />
      </Group>
      <Text size="sm">
        {t('rtOrder')}{' '}
        <Anchor component={Link} to={`/orders/${item.orderId}`} data-testid="return-order">
          {item.orderNumber ? `${item.orderNumber} (${item.orderId})` : item.orderId}
        </Anchor>
      </Text>
      <Decisions item={item} changed={setItem} />
      <Lines item={item} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder data-testid="return-way">
          <Title order={3} size="h5" mb="xs">
            {t('rtWay')}
          </Title>
          <Text size="sm">{wordOf(t, 'rtWay_', item.way, RETURN_WAYS)}</Text>
          <Text size="sm">
            {t('company')}: {company}
          </Text>
          {item.pointId !== null && (
            <Text size="sm" data-testid="return-point">
              {t('rtPoint')}: {point ? [point.name, point.address].filter(Boolean).join(', ') : `#${item.pointId}`}
            </Text>
          )}
        </Card>
        <Card withBorder data-testid="return-money">
          <Title order={3} size="h5" mb="xs">
            {t('rtMoney')}
          </Title>
          <Table>
            <Table.Tbody>
              {row(t('rtGoodsSum'), formatMoney(item.goodsSum, locale))}
              {row(t('rtCost'), formatMoney(item.cost, locale))}
              {row(t('rtPayer'), wordOf(t, 'rtPayer_', item.payer, ['shop', 'buyer']), 'return-payer')}
              {row(t('rtRefund'), formatMoney(item.refundSum, locale), 'return-refund', true)}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="gray.7" mt="xs">
            {t('rtRefundHint')}
          </Text>
        </Card>
        <Card withBorder data-testid="return-parcel">
          <Title order={3} size="h5" mb="xs">
            {t('rtParcel')}
          </Title>
          {item.parcelOrderId === null ? (
            <Text size="sm" c="gray.7">
              {t('rtNoParcel')}
            </Text>
          ) : (
            <>
              <Text size="sm">
                {t('rtParcelOrder')}{' '}
                <Anchor component={Link} to={`/orders/${item.parcelOrderId}`} data-testid="return-parcel-order">
                  {item.parcelOrderId}
                </Anchor>
              </Text>
              <Text size="sm">
                {t('rtTrack')}: <span data-testid="return-parcel-track">{parcel?.trackNumber ?? '—'}</span>
              </Text>
            </>
          )}
        </Card>
        <Card withBorder data-testid="return-history">
          <Title order={3} size="h5" mb="xs">
            {t('rtHistory')}
          </Title>
          <Timeline active={item.status === 'requested' ? 0 : 1} bulletSize={14} lineWidth={2}>
            <Timeline.Item title={t(`rtStartedBy_${item.createdBy}` as TextKey)}>
              <Text size="xs" c="gray.7">
                {when(item.createdAt)}
              </Text>
            </Timeline.Item>
            {item.status !== 'requested' && (
              <Timeline.Item title={wordOf(t, 'rtStatus_', item.status, RETURN_STATUSES)}>
                <Text size="xs" c="gray.7">
                  {t('rtLastChange')}: {when(item.updatedAt)}
                </Text>
                {item.approvedBy && <Text size="xs">{t(`rtApprovedBy_${item.approvedBy}` as TextKey)}</Text>}
              </Timeline.Item>
            )}
          </Timeline>
        </Card>
      </SimpleGrid>
      <Photos photos={item.photos} />
    </Stack>
  );
}
