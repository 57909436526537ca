/**
 * Integrations: delivery companies' contracts (connect in test or live mode, the parameters
 * shown masked after saving, disconnect; Check connection of the typed credentials before
 * connecting or of the stored contract, the company's answer in words, as the checklist's) and webhooks (add, edit the address, events and
 * switch, rotate the signing secret (shown once), send a test, each one's delivery log with its
 * attempts and "send again", delete).
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  MultiSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { formatInstant } from '../../format';
import { useText } from '../../i18n';
import { ConnectCard } from '../../components/ConnectCard';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';
import { useSignedIn } from '../../session';

type Webhook = Schemas['Webhook'];
type EventType = NonNullable<Webhook['eventTypes']>[number];
/**
 * Every event a webhook can take, in the order the form lists them. The typed client has them
 * as a type only; `satisfies` makes the compiler refuse this list when the service adds or
 * drops an event (a missing key or an unknown one), so it cannot drift from the API.
 */
const OFFERED_EVENTS = {
  'order.created': true,
  'order.status_changed': true,
  'order.problem': true,
  'order.sent_for_return': true,
  'order.storage_ending': true,
  'order.late': true,
  'fulfilment.goods_missing': true,
  'fulfilment.return_received': true,
  'fulfilment.product_ends': true,
  'fulfilment.stock_changed': true,
  'fulfilment.supply_accepted': true,
  'marketplace_order.created': true,
  'pickup.status_changed': true,
  'supply.status_changed': true,
  'bill.issued': true,
  'return.requested': true,
  'return.approved': true,
  'return.refused': true,
  'return.cancelled': true,
  'return.in_transit': true,
  'return.received': true,
} as const satisfies Record<EventType, true>;
const EVENT_TYPES = Object.keys(OFFERED_EVENTS) as EventType[];

/** A webhook's address, events (none chosen: every event), description and switch; its secret rotated. */
function WebhookEdit({ webhook, changed }: { webhook: Webhook; changed(): void }) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const [url, setUrl] = useState(webhook.url);
  const [eventTypes, setEventTypes] = useState<string[]>(webhook.eventTypes ?? []);
  const [description, setDescription] = useState(webhook.description ?? '');
  const [enabled, setEnabled] = useState(webhook.enabled);
  const [secret, setSecret] = useState<Schemas['WebhookSecret'] | null>(null);
  const action = useAction();
  const save = async () => {
    if (
      await action.run(async () =>
        ok(
          await api.PUT('/v2/webhooks/{id}', {
            params: { path: { id: webhook.id } },
            body: {
              url,
              eventTypes: eventTypes as EventType[],
              description: description || undefined,
              enabled,
            },
          }),
        ),
      )
    )
      changed();
  };
  const rotate = () =>
    action.run(async () =>
      setSecret(
        ok(
          await api.POST('/v2/webhooks/{id}/rotate-secret', {
            params: { path: { id: webhook.id }, header: { 'Idempotency-Key': idempotencyKey() } },
          }),
        ),
      ),
    );
  return (
    <Stack gap="xs" mt="sm" data-testid={`webhook-edit-${webhook.id}`}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="URL"
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          data-testid="webhook-url"
        />
        <TextInput
          label={t('description')}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
        />
      </SimpleGrid>
      <MultiSelect
        label={`${t('eventTypes')} (${t('eventTypesHint')})`}
        value={eventTypes}
        onChange={setEventTypes}
        data={EVENT_TYPES}
        searchable
        data-testid="webhook-events"
      />
      <Checkbox
        label={t('webhookEnabled')}
        checked={enabled}
        onChange={(event) => setEnabled(event.currentTarget.checked)}
      />
      <Group>
        <Button size="xs" onClick={() => void save()} data-testid="save-webhook">
          {t('saveSettings')}
        </Button>
        <Button size="xs" variant="default" onClick={() => void rotate()} data-testid="rotate-secret">
          {t('rotateSecret')}
        </Button>
      </Group>
      {secret && (
        <Alert color="indigo" title={t('secretShownOnce')} data-testid="new-secret">
          <Code>{secret.secret}</Code>
          {secret.previousSecretValidUntil && (
            <Text size="sm" mt="xs">
              {t('previousSecretUntil', {
                until: formatInstant(secret.previousSecretValidUntil, locale, session.timeZone),
              })}
            </Text>
          )}
        </Alert>
      )}
      <ApiError error={action.error} />
    </Stack>
  );
}

/** One delivery's attempts: when, how long, the answer's status or the error. */
function Attempts({ webhookId, deliveryId }: { webhookId: number; deliveryId: number }) {
  const { locale } = useText();
  const session = useSignedIn();
  const attempts = useList(
    () =>
      api.GET('/v2/webhooks/{id}/attempts', {
        params: { path: { id: webhookId }, query: { deliveryId, perPage: 50 } },
      }),
    `attempts-${deliveryId}`,
  );
  return (
    <>
      <ApiError error={attempts.error} />
      <Table data-testid={`attempts-${deliveryId}`}>
        <Table.Tbody>
          {(attempts.data ?? []).map((attempt) => (
            <Table.Tr key={attempt.id}>
              <Table.Td>{formatInstant(attempt.at, locale, session.timeZone)}</Table.Td>
              <Table.Td>{attempt.httpStatus ?? '—'}</Table.Td>
              <Table.Td>{attempt.durationMs} ms</Table.Td>
              <Table.Td>{attempt.error ?? attempt.responseHead ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </>
  );
}

function Contracts() {
  const { t } = useText();
  const contracts = useList(() => api.GET('/v2/carrier-integrations'), 'contracts');
  const [testMode, setTestMode] = useState(true);
  return (
    <Stack>
      <Title order={3} size="h4">
        {t('contracts')}
      </Title>
      <ApiError error={contracts.error} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {(contracts.data ?? []).map((contract) => (
          <ConnectCard
            key={`${contract.companyId}-${contract.connected}`}
            testId={`contract-${contract.companyId}`}
            name={`${contract.name}${contract.connected ? ` · ${contract.testMode ? t('testMode') : t('liveMode')}` : ''}`}
            connected={contract.connected}
            params={contract.integrationParams}
            extra={
              contract.hasTestEnvironment ? (
                <Checkbox
                  label={t('testMode')}
                  checked={testMode}
                  onChange={(event) => setTestMode(event.currentTarget.checked)}
                />
              ) : undefined
            }
            connect={async (params) =>
              ok(
                await api.POST('/v2/carrier-integrations/{companyId}', {
                  params: { path: { companyId: contract.companyId }, header: { 'Idempotency-Key': idempotencyKey() } },
                  // a company without a test environment refuses testMode: true (422), so it is sent only where one exists
                  body: { params, ...(contract.hasTestEnvironment ? { testMode } : {}) },
                }),
              )
            }
            disconnect={async () =>
              ok(
                await api.DELETE('/v2/carrier-integrations/{companyId}', {
                  params: { path: { companyId: contract.companyId } },
                }),
              )
            }
            // the stored contract (null), or the credentials typed before connecting: nothing is stored
            check={async (params) =>
              ok(
                await api.POST('/v2/carrier-integrations/{companyId}/check', {
                  params: { path: { companyId: contract.companyId } },
                  body: params === null ? {} : { params, ...(contract.hasTestEnvironment ? { testMode } : {}) },
                }),
              )
            }
            changed={contracts.reload}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const { t, locale } = useText();
  const session = useSignedIn();
  const deliveries = useList(
    () => api.GET('/v2/webhooks/{id}/deliveries', { params: { path: { id: webhook.id }, query: { perPage: 20 } } }),
    `deliveries-${webhook.id}`,
  );
  const action = useAction();
  const [shown, setShown] = useState<number | null>(null);
  const again = async (deliveryId: number) => {
    if (
      await action.run(async () =>
        ok(
          await api.POST('/v2/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
            params: { path: { id: webhook.id, deliveryId }, header: { 'Idempotency-Key': idempotencyKey() } },
          }),
        ),
      )
    )
      deliveries.reload();
  };
  return (
    <>
      <ApiError error={deliveries.error ?? action.error} />
      {/* five columns and two buttons do not fit a phone: the table scrolls in its box, as the lists do (DataTable) */}
      <Table.ScrollContainer minWidth={640}>
        <Table striped data-testid={`deliveries-${webhook.id}`}>
          <Table.Tbody>
            {(deliveries.data ?? []).map((delivery) => [
              <Table.Tr key={delivery.id}>
                <Table.Td>{delivery.type}</Table.Td>
                <Table.Td>{formatInstant(delivery.createdAt, locale, session.timeZone)}</Table.Td>
                <Table.Td>
                  <Badge
                    color={
                      delivery.status === 'delivered' ? 'teal.9' : delivery.status === 'failed' ? 'red.9' : 'grape.9'
                    }
                  >
                    {delivery.status}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  {delivery.attempts} {delivery.lastError ?? ''}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => setShown(shown === delivery.id ? null : delivery.id)}
                      data-testid={`show-attempts-${delivery.id}`}
                    >
                      {t('attempts')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => void again(delivery.id)}
                      data-testid={`send-again-${delivery.id}`}
                    >
                      {t('sendAgain')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>,
              shown === delivery.id ? (
                <Table.Tr key={`${delivery.id}-attempts`}>
                  <Table.Td colSpan={5}>
                    <Attempts webhookId={webhook.id} deliveryId={delivery.id} />
                  </Table.Td>
                </Table.Tr>
              ) : null,
            ])}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {deliveries.data?.length === 0 && <Text size="sm">{t('nothingYet')}</Text>}
    </>
  );
}

function Webhooks() {
  const { t } = useText();
  const webhooks = useList(() => api.GET('/v2/webhooks', { params: { query: { perPage: 100 } } }), 'webhooks');
  const [url, setUrl] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const action = useAction();
  const add = async () => {
    if (
      await action.run(async () =>
        ok(
          await api.POST('/v2/webhooks', {
            params: { header: { 'Idempotency-Key': idempotencyKey() } },
            body: { url },
          }),
        ),
      )
    ) {
      setUrl('');
      webhooks.reload();
    }
  };
  const test = (id: number) =>
    action.run(async () =>
      ok(
        await api.POST('/v2/webhooks/{id}/test', {
          params: { path: { id }, header: { 'Idempotency-Key': idempotencyKey() } },
        }),
      ),
    );
  const remove = async (id: number) => {
    if (await action.run(async () => ok(await api.DELETE('/v2/webhooks/{id}', { params: { path: { id } } }))))
      webhooks.reload();
  };
  return (
    <Stack>
      <Title order={3} size="h4">
        {t('webhooks')}
      </Title>
      <Group align="end">
        <TextInput label="URL" value={url} onChange={(event) => setUrl(event.currentTarget.value)} w={420} />
        <Button onClick={() => void add()}>{t('create')}</Button>
      </Group>
      <ApiError error={webhooks.error ?? action.error} />
      {(webhooks.data ?? [])
        .filter((webhook) => webhook.kind === 'webhook')
        .map((webhook) => (
          <Card withBorder key={webhook.id}>
            <Group justify="space-between">
              <Anchor
                component="button"
                onClick={() => setOpen(open === webhook.id ? null : webhook.id)}
                data-testid={`webhook-${webhook.id}`}
              >
                {webhook.url}
              </Anchor>
              <Group gap="xs">
                {!webhook.enabled && <Badge color="red.9">{webhook.disabledReason ?? t('disconnect')}</Badge>}
                <Button size="xs" variant="default" onClick={() => void test(webhook.id)}>
                  {t('sendTest')}
                </Button>
                <Button size="xs" variant="light" color="red" onClick={() => void remove(webhook.id)}>
                  {t('delete')}
                </Button>
              </Group>
            </Group>
            {open === webhook.id && (
              <>
                <WebhookEdit webhook={webhook} changed={webhooks.reload} />
                <Deliveries webhook={webhook} />
              </>
            )}
          </Card>
        ))}
    </Stack>
  );
}

export function IntegrationsPage() {
  const { t } = useText();
  return (
    <Stack>
      <Title order={2}>{t('integrations')}</Title>
      <Contracts />
      <Webhooks />
    </Stack>
  );
}
