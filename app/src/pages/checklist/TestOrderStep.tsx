/**
 * The checklist's first test order: the selection token the widget wrote into the shop's page
 * (its delivery_selection field) made into an order (POST /v2/widget/orders, as the shop's
 * server would), confirmed and registered, then its sticker; links to the order and the PDF.
 */
import { Anchor, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, idempotencyKey, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useAction } from '../../hooks/use-action';
import { useText } from '../../i18n';
import { fileHref, statusNameOf, useReference } from '../../reference';

/** How long the page waits for the delivery company's registration (a job) before it says so. */
const REGISTRATION_WAIT_MS = 60_000;

export function TestOrderStep(props: { orderId: number | null; status: number | null; done(): void }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const [token, setToken] = useState('');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [orderId, setOrderId] = useState<number | null>(props.orderId);
  const [status, setStatus] = useState<number | null>(props.status);
  const [sticker, setSticker] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const action = useAction();
  useEffect(() => {
    setOrderId(props.orderId);
    setStatus(props.status);
  }, [props.orderId, props.status]);

  const make = async () => {
    const made = await action.run(async () => {
      const answer = ok(
        await api.POST('/v2/widget/orders', {
          params: { header: { 'Idempotency-Key': idempotencyKey() } },
          body: {
            selectionToken: token.trim(),
            cmsId: `TEST-${Date.now()}`,
            recipient: { fullName: name.trim(), phone: phone.trim() },
          },
        }),
      );
      setOrderId(answer.id);
      setStatus(11);
    });
    if (made) props.done();
  };
  const register = async (id: number) => {
    setBusy(true);
    await action.run(async () => {
      if (status === 11) ok(await api.POST('/v2/orders/confirm', { body: { ids: [id] } }));
      const until = Date.now() + REGISTRATION_WAIT_MS;
      for (;;) {
        const order = ok(await api.GET('/v2/orders/{id}', { params: { path: { id } } }));
        setStatus(order.status);
        if (order.status !== 11 && order.status !== 12) break;
        if (Date.now() > until) break;
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
    });
    setBusy(false);
    props.done();
  };
  const print = async (id: number) => {
    const made = await action.run(async () => {
      setSticker(ok(await api.POST('/v2/orders/stickers', { body: { ids: [id], type: 1 } })).file);
    });
    if (made) props.done();
  };
  return (
    <Stack data-testid="checklist-test-order">
      {orderId === null ? (
        <>
          <TextInput
            label={t('clSelectionToken')}
            placeholder="sel_…"
            value={token}
            onChange={(event) => setToken(event.currentTarget.value)}
            data-testid="checklist-selection-token"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('clRecipientName')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              data-testid="checklist-recipient-name"
            />
            <TextInput
              label={t('clRecipientPhone')}
              type="tel"
              value={phone}
              onChange={(event) => setPhone(event.currentTarget.value)}
              data-testid="checklist-recipient-phone"
            />
          </SimpleGrid>
          <Group>
            <Button
              disabled={!token.trim().startsWith('sel_') || !name.trim() || !phone.trim()}
              onClick={() => void make()}
              data-testid="checklist-make-order"
            >
              {t('clMakeTestOrder')}
            </Button>
          </Group>
        </>
      ) : (
        <>
          <Group gap="md">
            <Anchor component={Link} to={`/orders/${orderId}`} data-testid="checklist-order-link">
              {t('clOpenOrder', { id: orderId })}
            </Anchor>
            {status !== null && (
              <Text size="sm" data-testid="checklist-order-status" data-status={status}>
                {t('clOrderStatus', { status: statusNameOf(reference, { code: status }) })}
              </Text>
            )}
          </Group>
          <Group>
            {(status === 11 || status === 12) && (
              <Button loading={busy} onClick={() => void register(orderId)} data-testid="checklist-register">
                {t('clRegister')}
              </Button>
            )}
            {status === 13 && (
              <Button onClick={() => void print(orderId)} data-testid="checklist-print-sticker">
                {t('clPrintSticker')}
              </Button>
            )}
            {sticker && (
              <Anchor href={fileHref(sticker)} target="_blank" data-testid="checklist-sticker-link">
                {t('clStickerPdf')}
              </Anchor>
            )}
          </Group>
          {busy && <Text size="sm">{t('clRegistering')}</Text>}
        </>
      )}
      <ApiError error={action.error} />
    </Stack>
  );
}
