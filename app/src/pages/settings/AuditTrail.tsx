/**
 * The audit trail (owners only): who changed what, when and from where, newest first, filtered by
 * actor, operation, record and period; a settings change opens its values before and after; the
 * filtered trail downloads as CSV or JSON lines; how many days it is kept.
 */
import { Button, Card, Code, Group, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { formatInstant } from '../../format';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';
import { useSignedIn } from '../../session';

type Entry = Schemas['AuditEntry'];
const PER_PAGE = 50;

interface Filter {
  actor: string;
  operation: string;
  record: string;
  from: string;
  to: string;
}

const EMPTY: Filter = { actor: '', operation: '', record: '', from: '', to: '' };

function query(filter: Filter): Record<string, string> {
  const given: Record<string, string> = {};
  if (filter.actor) given.actor = filter.actor;
  if (filter.operation) given.operation = filter.operation;
  if (filter.record) given.record = filter.record;
  if (filter.from) given.from = new Date(`${filter.from}T00:00:00`).toISOString();
  if (filter.to) given.to = new Date(`${filter.to}T23:59:59`).toISOString();
  return given;
}

function Retention() {
  const { t } = useText();
  const settings = useList(() => api.GET('/v2/audit/settings'), 'audit-settings');
  const [days, setDays] = useState<number | string>('');
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const save = async () => {
    setError(null);
    setSaved(false);
    try {
      ok(await api.PUT('/v2/audit/settings', { body: { retentionDays: days === '' ? null : Number(days) } }));
      settings.reload();
      setSaved(true);
    } catch (caught) {
      setError(caught);
    }
  };
  const current = settings.data?.retentionDays;
  return (
    <Card withBorder>
      <Group align="end">
        <NumberInput
          label={t('auditRetention')}
          description={current ? t('auditKeptDays', { days: current }) : t('auditKeptForever')}
          min={1}
          max={3650}
          value={days}
          onChange={setDays}
          data-testid="audit-retention"
        />
        <Button variant="default" onClick={() => void save()}>
          {t('applyChanges')}
        </Button>
        {saved && <Text size="sm">{t('auditSaved')}</Text>}
      </Group>
      <ApiError error={settings.error ?? error} />
    </Card>
  );
}

export function AuditTrailPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const [typed, setTyped] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const entries = useList(
    () => api.GET('/v2/audit', { params: { query: { ...query(filter), page, perPage: PER_PAGE } } }),
    `audit-${JSON.stringify(filter)}-${page}`,
  );
  const field = (name: keyof Filter, label: string, type = 'text') => (
    <TextInput
      label={label}
      type={type}
      value={typed[name]}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setTyped((current) => ({ ...current, [name]: value }));
      }}
    />
  );
  const exportUrl = (format: 'csv' | 'jsonl') =>
    `/v2/audit/export?${new URLSearchParams({ ...query(filter), format }).toString()}`;

  return (
    <Stack>
      <Title order={2}>{t('auditTrail')}</Title>
      <Text size="sm">{t('auditIntro')}</Text>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 5 }}>
          {field('actor', t('auditActor'))}
          {field('operation', t('auditOperation'))}
          {field('record', t('auditRecord'))}
          {field('from', t('auditFrom'), 'date')}
          {field('to', t('auditTo'), 'date')}
        </SimpleGrid>
        <Group mt="sm">
          <Button
            onClick={() => {
              setPage(1);
              setFilter(typed);
            }}
            data-testid="audit-filter"
          >
            {t('auditApply')}
          </Button>
          <Button component="a" variant="default" href={exportUrl('csv')} download>
            {t('auditExportCsv')}
          </Button>
          <Button component="a" variant="default" href={exportUrl('jsonl')} download>
            {t('auditExportJsonl')}
          </Button>
        </Group>
      </Card>
      <ApiError error={entries.error} />
      <DataTable
        rows={entries.data}
        rowKey={(entry: Entry) => entry.id}
        rowProps={(entry: Entry) => ({ 'data-testid': `audit-${entry.operation}` })}
        labels={{ empty: t('nothingYet') }}
        paging={{ page, perPage: PER_PAGE, total: entries.total, onPage: setPage }}
        columns={[
          {
            key: 'at',
            header: t('auditWhen'),
            cell: (entry: Entry) => formatInstant(entry.at, locale, session.timeZone),
          },
          {
            key: 'actor',
            header: t('auditActor'),
            cell: (entry: Entry) => (entry.actor.id ? `${entry.actor.kind}:${entry.actor.id}` : entry.actor.kind),
          },
          { key: 'operation', header: t('auditOperation'), cell: (entry: Entry) => entry.operation },
          {
            key: 'records',
            header: t('auditRecords'),
            cell: (entry: Entry) =>
              entry.records.map((record) => `${record.type} ${record.ids.join(', ')}`.trim()).join('; '),
          },
          {
            key: 'from',
            header: t('auditWhere'),
            cell: (entry: Entry) => (
              <Stack gap={0}>
                <Text size="sm">{entry.ip ?? '—'}</Text>
                <Text size="xs" lineClamp={1}>
                  {entry.userAgent ?? ''}
                </Text>
              </Stack>
            ),
          },
          {
            key: 'changes',
            header: t('auditChanges'),
            cell: (entry: Entry) =>
              entry.changes ? (
                open === entry.id ? (
                  <Code block onClick={() => setOpen(null)}>
                    {JSON.stringify(entry.changes, null, 1)}
                  </Code>
                ) : (
                  <Button size="xs" variant="subtle" onClick={() => setOpen(entry.id)}>
                    {t('auditBeforeAfter')}
                  </Button>
                )
              ) : null,
          },
        ]}
      />
      <Retention />
    </Stack>
  );
}
