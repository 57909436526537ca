/**
 * Scoped API keys (owners only): make one limited to scopes, and optionally to shops, an expiry
 * and an IP allow-list; the key is shown once, in this page only; the list says when each was last
 * used; revoking stops it at once on every process of the service.
 */
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  MultiSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { DataTable } from '../../components/DataTable';
import { formatInstant } from '../../format';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';
import { useReference } from '../../reference';
import { useSignedIn } from '../../session';

type ApiKey = Schemas['ApiKey'];
type KeyScope = ApiKey['scopes'][number];
const SCOPES: KeyScope[] = ['read', 'orders', 'documents', 'catalogue', 'fulfilment', 'pickups', 'billing', 'settings'];
const SCOPE_WORDS = {
  read: 'scopeRead',
  orders: 'scopeOrders',
  documents: 'scopeDocuments',
  catalogue: 'scopeCatalogue',
  fulfilment: 'scopeFulfilment',
  pickups: 'scopePickups',
  billing: 'scopeBilling',
  settings: 'scopeSettings',
} as const;

function NewKeyForm({ made }: { made(key: string): void }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<KeyScope[]>(['read']);
  const [shopIds, setShopIds] = useState<string[]>([]);
  const [addresses, setAddresses] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const allowedIps = addresses
        .split(/[\s,]+/)
        .map((entry) => entry.trim())
        .filter(Boolean);
      const answer = ok(
        await api.POST('/v2/api-keys', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: {
            name,
            scopes,
            shopIds: shopIds.length ? shopIds.map(Number) : null,
            allowedIps: allowedIps.length ? allowedIps : null,
            expiresAt: expiresOn ? new Date(`${expiresOn}T23:59:59`).toISOString() : null,
          },
        }),
      );
      setName('');
      setShopIds([]);
      setAddresses('');
      setExpiresOn('');
      made(answer.key);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder data-testid="new-api-key">
      <Title order={3} size="h5" mb="xs">
        {t('newApiKey')}
      </Title>
      <Stack gap="sm">
        <TextInput
          label={t('apiKeyName')}
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <Checkbox.Group label={t('apiKeyScopes')} value={scopes} onChange={(value) => setScopes(value as KeyScope[])}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} mt={4}>
            {SCOPES.map((scope) => (
              <Checkbox key={scope} value={scope} label={t(SCOPE_WORDS[scope])} data-testid={`scope-${scope}`} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <MultiSelect
            label={t('apiKeyShops')}
            placeholder={t('apiKeyEveryShop')}
            value={shopIds}
            onChange={setShopIds}
            data={(reference?.shops ?? []).map((shop) => ({ value: String(shop.id), label: shop.name }))}
          />
          <Textarea
            label={t('apiKeyAddresses')}
            description={t('apiKeyAddressesHint')}
            autosize
            minRows={1}
            value={addresses}
            onChange={(event) => setAddresses(event.currentTarget.value)}
          />
          <TextInput
            label={t('apiKeyExpires')}
            type="date"
            value={expiresOn}
            onChange={(event) => setExpiresOn(event.currentTarget.value)}
          />
        </SimpleGrid>
        <Group>
          <Button
            onClick={() => void create()}
            loading={busy}
            disabled={scopes.length === 0}
            data-testid="make-api-key"
          >
            {t('makeApiKey')}
          </Button>
        </Group>
        <ApiError error={error} />
      </Stack>
    </Card>
  );
}

export function ApiKeysPage() {
  const { t, locale } = useText();
  const session = useSignedIn();
  const reference = useReference(locale);
  const keys = useList(() => api.GET('/v2/api-keys'), 'api-keys');
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const shopName = (id: number) => reference?.shops.find((shop) => shop.id === id)?.name ?? `#${id}`;
  const revoke = async (id: number) => {
    setError(null);
    try {
      ok(await api.DELETE('/v2/api-keys/{id}', { params: { path: { id } } }));
      keys.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  const when = (instant: string | null) => (instant ? formatInstant(instant, locale, session.timeZone) : '—');

  return (
    <Stack>
      <Title order={2}>{t('apiKeys')}</Title>
      <Text size="sm">{t('apiKeysIntro')}</Text>
      <NewKeyForm
        made={(key) => {
          setShown(key);
          keys.reload();
        }}
      />
      {shown && (
        <Alert
          color="gray"
          title={t('apiKeyShownOnce')}
          data-testid="api-key-shown"
          withCloseButton
          closeButtonLabel={t('dismiss')}
          onClose={() => setShown(null)}
        >
          <Code block>{shown}</Code>
        </Alert>
      )}
      <ApiError error={keys.error ?? error} />
      <DataTable
        rows={keys.data}
        rowKey={(key: ApiKey) => key.id}
        rowProps={(key: ApiKey) => ({ 'data-testid': `api-key-${key.name}` })}
        labels={{ empty: t('nothingYet') }}
        columns={[
          {
            key: 'name',
            header: t('apiKeyName'),
            cell: (key: ApiKey) => (
              <Stack gap={0}>
                <Text size="sm">{key.name}</Text>
                <Text size="xs">{key.hint}</Text>
              </Stack>
            ),
          },
          {
            key: 'scopes',
            header: t('apiKeyScopes'),
            cell: (key: ApiKey) => (
              <Group gap={4}>
                {key.scopes.map((scope) => (
                  <Badge key={scope} variant="light" color="indigo">
                    {scope}
                  </Badge>
                ))}
                {(key.shopIds ?? []).map((id) => (
                  <Badge key={`shop-${id}`} variant="outline" color="gray.8">
                    {shopName(id)}
                  </Badge>
                ))}
                {key.allowedIps && (
                  <Badge variant="outline" color="gray.8">
                    {key.allowedIps.join(', ')}
                  </Badge>
                )}
              </Group>
            ),
          },
          { key: 'lastUsed', header: t('apiKeyLastUsed'), cell: (key: ApiKey) => when(key.lastUsedAt) },
          { key: 'expires', header: t('apiKeyExpires'), cell: (key: ApiKey) => when(key.expiresAt) },
          {
            key: 'state',
            header: t('apiKeyState'),
            cell: (key: ApiKey) => (
              <Badge color={key.state === 'active' ? 'teal.9' : 'red.9'}>
                {t(key.state === 'active' ? 'apiKeyActive' : key.state === 'expired' ? 'expired' : 'apiKeyRevoked')}
              </Badge>
            ),
          },
          {
            key: 'actions',
            header: <VisuallyHidden>{t('apiKeyRevoke')}</VisuallyHidden>,
            cell: (key: ApiKey) =>
              key.state === 'revoked' ? null : (
                <Button size="xs" color="red" variant="light" onClick={() => void revoke(key.id)}>
                  {t('apiKeyRevoke')}
                </Button>
              ),
          },
        ]}
      />
    </Stack>
  );
}
