/** Money and reports: bills with their PDF and payment status, agent reports (accept), analytical reports (order one, see it being written, download it). */
import { Anchor, Badge, Button, Card, Group, Select, SimpleGrid, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DateField } from '../../components/DateField';
import { formatDay, formatMoney, todayIn } from '../../format';
import { useText } from '../../i18n';
import { useList } from '../../hooks/use-list';
import { fileHref } from '../../reference';
import { useSignedIn } from '../../session';

const PAY_COLORS = ['red.9', 'grape.9', 'teal.9'] as const;
const REPORT_TYPES = [1, 2, 3, 4, 5, 6] as const;
const REPORT_NAMES = {
  en: ['Orders', 'Deliveries by company', 'Returns', 'Cash on delivery', 'Stock balance', 'Marking codes written off'],
  ru: ['Заказы', 'Доставки по службам', 'Возвраты', 'Наложенный платёж', 'Остатки', 'Списание кодов маркировки'],
};

function Bills() {
  const { t, locale } = useText();
  const bills = useList(() => api.GET('/v2/reports/bill', { params: { query: { perPage: 100 } } }), 'bills');
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('bills')}
      </Title>
      <ApiError error={bills.error} />
      <Table striped data-testid="bills">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>{t('date')}</Table.Th>
            <Table.Th>{t('sum')}</Table.Th>
            <Table.Th>{t('paid')}</Table.Th>
            <Table.Th>{t('pdf')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(bills.data ?? []).map((bill) => (
            <Table.Tr key={bill.id} data-testid={`bill-${bill.id}`}>
              <Table.Td>{bill.id}</Table.Td>
              <Table.Td>{formatDay(bill.date, locale)}</Table.Td>
              <Table.Td>{formatMoney(bill.sum, locale)}</Table.Td>
              <Table.Td>
                <Badge color={PAY_COLORS[bill.payStatus]}>{t(`payStatus${bill.payStatus}`)}</Badge>{' '}
                {formatMoney(bill.paySum, locale)}
              </Table.Td>
              <Table.Td>
                <Anchor href={fileHref(bill.file)} target="_blank" data-testid="bill-pdf">
                  {t('pdf')} №{bill.id}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function AgentReports() {
  const { t, locale } = useText();
  const reports = useList(() => api.GET('/v2/reports/agent', { params: { query: { perPage: 100 } } }), 'agent');
  const [error, setError] = useState<unknown>(null);
  const accept = async (id: number) => {
    setError(null);
    try {
      ok(await api.PUT('/v2/reports/agent-accept/{id}', { params: { path: { id } } }));
      reports.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('agentReports')}
      </Title>
      <ApiError error={reports.error ?? error} />
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>{t('date')}</Table.Th>
            <Table.Th>{t('sum')}</Table.Th>
            <Table.Th>{t('status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(reports.data ?? []).map((report) => (
            <Table.Tr key={report.id}>
              <Table.Td>
                <Anchor href={fileHref(report.file)} target="_blank">
                  №{report.id}
                </Anchor>
              </Table.Td>
              <Table.Td>{formatDay(report.date, locale)}</Table.Td>
              <Table.Td>{formatMoney(report.sum, locale)}</Table.Td>
              <Table.Td>
                {report.accepted ? (
                  <Badge color="teal.9">{t('accepted')}</Badge>
                ) : (
                  <Button size="xs" onClick={() => void accept(report.id)}>
                    {t('accept')}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

function AnalyticalReports() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const reports = useList(
    () => api.GET('/v2/reports/analytical', { params: { query: { perPage: 100 } } }),
    'analytical',
  );
  const [type, setType] = useState<string>('1');
  const [from, setFrom] = useState<string | null>(todayIn(session.timeZone));
  const [to, setTo] = useState<string | null>(todayIn(session.timeZone));
  const [error, setError] = useState<unknown>(null);
  const names = REPORT_NAMES[locale];
  const order = async () => {
    setError(null);
    try {
      ok(
        await api.POST('/v2/reports/analytical', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: { type: Number(type) as (typeof REPORT_TYPES)[number], date: { from: from ?? '', to: to ?? '' } },
        }),
      );
      reports.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('analyticalReports')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <Select
          label={t('status')}
          value={type}
          onChange={(value) => setType(value ?? '1')}
          data={REPORT_TYPES.map((code) => ({ value: String(code), label: names[code - 1] }))}
        />
        <DateField label={t('dateFrom')} value={from} onChange={setFrom} />
        <DateField label={t('dateTo')} value={to} onChange={setTo} />
        <Button mt="xl" onClick={() => void order()}>
          {t('create')}
        </Button>
      </SimpleGrid>
      <ApiError error={error ?? reports.error} />
      <Group justify="end">
        <Button variant="subtle" size="xs" onClick={reports.reload}>
          {t('retry')}
        </Button>
      </Group>
      <Table striped>
        <Table.Tbody>
          {(reports.data ?? []).map((report) => (
            <Table.Tr key={report.id}>
              <Table.Td>№{report.id}</Table.Td>
              <Table.Td>{names[report.type - 1]}</Table.Td>
              <Table.Td>{formatDay(report.date, locale)}</Table.Td>
              <Table.Td>
                {report.status === 'ready' ? (
                  <Anchor href={fileHref(report.file)}>xlsx</Anchor>
                ) : (
                  <Badge color={report.status === 'failed' ? 'red.9' : 'grape.9'}>{report.status}</Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Card>
  );
}

export function BillsPage() {
  const { t } = useText();
  return (
    <Stack>
      <Title order={2}>{t('bills')}</Title>
      <Bills />
      <AgentReports />
      <AnalyticalReports />
    </Stack>
  );
}
