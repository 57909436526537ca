/**
 * Delivery on time (GET /v2/reports/delivery-times): of the parcels that arrived in a period,
 * how many came by the date promised when the order was priced, beside the companies' declared
 * days; per company and type, and for the busiest routes. A test account can make a history of
 * delivered parcels to learn from (POST /v2/sandbox/delivery-history).
 */
import { Button, Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { todayIn } from '../../format';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { useText, type TextKey } from '../../i18n';
import { useSignedIn } from '../../session';

type Report = Schemas['OnTimeReport'];
type Figures = Report['total'];

const PERIODS = [30, 90, 365] as const;
/** The busiest routes shown (the report answers 100): a page, not a scroll. */
const ROUTES_SHOWN = 30;

function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

export function DeliveryTimesPage() {
  const { t } = useText();
  const session = useSignedIn();
  const [period, setPeriod] = useState<(typeof PERIODS)[number]>(90);
  const today = todayIn(session.timeZone);
  // the last day of a period reaches a week ahead: a simulated parcel arrives on its modelled day
  const dateTo = daysBefore(today, -7);
  const dateFrom = daysBefore(dateTo, period);
  const report = useList(
    () => api.GET('/v2/reports/delivery-times', { params: { query: { dateFrom, dateTo } } }),
    `delivery-times-${dateFrom}-${dateTo}`,
  );
  const history = useAction();
  const share = (value: number | null) => (value === null ? '—' : `${Math.round(value * 1000) / 10} %`);
  const typeName = (type: number) => t(`type${type}` as TextKey);
  const figureColumns = <Row extends Figures>(): Array<DataTableColumn<Row>> => [
    { key: 'parcels', header: t('onTimeParcels'), cell: (row) => row.parcels },
    {
      key: 'onTime',
      header: t('onTimeShare'),
      cell: (row) => share(row.onTimeShare),
      cellProps: () => ({ 'data-testid': 'on-time-share' }),
    },
    { key: 'declared', header: t('onTimeDeclaredShare'), cell: (row) => share(row.declaredOnTimeShare) },
    { key: 'promised', header: t('onTimePromisedDays'), cell: (row) => row.medianPromisedDays ?? '—' },
    { key: 'actual', header: t('onTimeActualDays'), cell: (row) => row.medianActualDays },
  ];
  const total = report.data?.total;
  return (
    <Stack>
      <Title order={2}>{t('deliveryTimes')}</Title>
      <Text size="sm">{t('onTimeHint')}</Text>
      <Group justify="space-between">
        <SegmentedControl
          value={String(period)}
          onChange={(value) => setPeriod(Number(value) as (typeof PERIODS)[number])}
          data={PERIODS.map((days) => ({ value: String(days), label: t('onTimePeriod', { days }) }))}
          data-testid="on-time-period"
        />
        <Button
          variant="light"
          onClick={async () => {
            if (
              await history.run(() => api.POST('/v2/sandbox/delivery-history', { body: { parcels: 5000, days: 180 } }))
            )
              report.reload();
          }}
          data-testid="make-delivery-history"
        >
          {t('onTimeMakeHistory')}
        </Button>
      </Group>
      <ApiError error={report.error ?? history.error} />
      {total && (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Card withBorder>
            <Text size="sm" c="gray.7">
              {t('onTimeShare')}
            </Text>
            <Text fw={700} size="xl" data-testid="on-time-total">
              {share(total.onTimeShare)}
            </Text>
          </Card>
          <Card withBorder>
            <Text size="sm" c="gray.7">
              {t('onTimeDeclaredShare')}
            </Text>
            <Text fw={700} size="xl">
              {share(total.declaredOnTimeShare)}
            </Text>
          </Card>
          <Card withBorder>
            <Text size="sm" c="gray.7">
              {t('onTimeParcels')}
            </Text>
            <Text fw={700} size="xl" data-testid="on-time-parcels">
              {total.parcels}
            </Text>
          </Card>
        </SimpleGrid>
      )}
      <Title order={3} size="h4">
        {t('onTimeByCompany')}
      </Title>
      <Card withBorder p={0}>
        <DataTable
          rows={report.data?.companies ?? null}
          rowKey={(row) => `${row.companyId}-${row.deliveryType}`}
          labels={{ empty: t('nothingYet') }}
          columns={[
            {
              key: 'company',
              header: t('onTimeCompany'),
              cell: (row) => `${row.companyName} · ${typeName(row.deliveryType)}`,
            },
            ...figureColumns<Report['companies'][number]>(),
          ]}
        />
      </Card>
      <Title order={3} size="h4">
        {t('onTimeByRoute')}
      </Title>
      <Card withBorder p={0}>
        <DataTable
          rows={report.data?.routes.slice(0, ROUTES_SHOWN) ?? null}
          rowKey={(row) => `${row.companyId}-${row.deliveryType}-${row.from}-${row.to}`}
          labels={{ empty: t('nothingYet') }}
          columns={[
            { key: 'route', header: t('onTimeRoute'), cell: (row) => `${row.from} → ${row.to}` },
            {
              key: 'company',
              header: t('onTimeCompany'),
              cell: (row) => `${row.companyName} · ${typeName(row.deliveryType)}`,
            },
            ...figureColumns<Report['routes'][number]>(),
          ]}
        />
      </Card>
    </Stack>
  );
}
