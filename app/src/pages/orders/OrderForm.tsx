/**
 * An order by hand: recipient, address with the city searched in the localities, goods and
 * sizes, live prices of every company and tariff from POST /v2/calculator (the shop's widget
 * settings applied), the pickup point chosen on the map, the courier's date and interval, COD and
 * declared value (per item, on the goods' lines). The API's field errors land on their fields.
 * The form is kept in sessionStorage as it is typed: an ended session or a reload gives it back.
 * This file keeps the draft and saves it, with the shop, the shop's number and the comment; the
 * recipient, goods, places and delivery are the cards of order-form/.
 */
import { Alert, Button, Card, Group, Select, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, idempotencyKey, ok, type Order } from '../../api';
import { fieldErrorsOf } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { draftStore } from '../../drafts';
import { useText } from '../../i18n';
import { useReference } from '../../reference';
import { DeliveryChoice } from './order-form/DeliveryChoice';
import { GoodsCard } from './order-form/GoodsCard';
import { PlacesCard } from './order-form/PlacesCard';
import { RecipientCard } from './order-form/RecipientCard';
import { draftFromOrder, EMPTY_DRAFT, orderBodyOf, type OrderDraft } from './order-draft';

const drafts = draftStore();

export function OrderForm() {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const navigate = useNavigate();
  const { id } = useParams();
  const editing = id !== undefined ? Number(id) : null;
  const draftKey = editing === null ? 'order-new' : `order-${editing}`;
  const [draft, setDraft] = useState<OrderDraft>(() => drafts.load<OrderDraft>(draftKey) ?? EMPTY_DRAFT);
  const [error, setError] = useState<unknown>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [cityText, setCityText] = useState(draft.city ? draft.city.name : '');

  // editing: the order as it is, unless a draft of it was being typed
  useEffect(() => {
    if (editing === null || drafts.load(draftKey)) return;
    api.GET('/v2/orders/{id}', { params: { path: { id: editing } } }).then((result) => {
      try {
        const loaded = draftFromOrder(ok(result) as Order);
        setDraft(loaded);
        setCityText(loaded.city?.name ?? '');
      } catch (caught) {
        setError(caught);
      }
    }, setError);
  }, [editing, draftKey]);

  const update = useCallback(
    (patch: Partial<OrderDraft>) =>
      setDraft((current) => {
        const next = { ...current, ...patch };
        drafts.save(draftKey, next);
        return next;
      }),
    [draftKey],
  );
  useEffect(() => {
    if (!draft.shopId && reference?.shops[0]) update({ shopId: reference.shops[0].id });
  }, [reference, draft.shopId, update]);

  const submit = async () => {
    setBusy(true);
    setError(null);
    setFields({});
    try {
      const body = orderBodyOf(draft);
      let orderId = editing;
      if (editing === null) {
        orderId = ok(
          await api.POST('/v2/orders', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body }),
        ).id;
      } else {
        ok(await api.PUT('/v2/orders/{id}', { params: { path: { id: editing } }, body }));
      }
      drafts.forget(draftKey);
      navigate(`/orders/${orderId}`);
    } catch (caught) {
      setError(caught);
      setFields(fieldErrorsOf(caught));
    } finally {
      setBusy(false);
    }
  };

  const err = (...names: string[]) => names.map((name) => fields[name]).find(Boolean);

  return (
    <Stack gap="md" maw={1100}>
      <Title order={2}>{editing === null ? t('newOrder') : `${t('order')} ${editing}`}</Title>
      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label={t('shop')}
            value={draft.shopId ? String(draft.shopId) : null}
            onChange={(value) => update({ shopId: value ? Number(value) : null })}
            data={(reference?.shops ?? []).map((shop) => ({ value: String(shop.id), label: shop.name }))}
            error={err('shopId')}
          />
          <TextInput
            label={t('cmsId')}
            value={draft.cmsId}
            onChange={(event) => update({ cmsId: event.currentTarget.value })}
            error={err('cmsId')}
          />
        </SimpleGrid>
      </Card>
      <RecipientCard draft={draft} update={update} err={err} cityText={cityText} setCityText={setCityText} />
      <GoodsCard draft={draft} update={update} err={err} />
      <PlacesCard draft={draft} update={update} err={err} />
      <DeliveryChoice draft={draft} update={update} err={err} />
      <Card withBorder>
        <Textarea
          label={t('comment')}
          value={draft.comment}
          onChange={(event) => update({ comment: event.currentTarget.value })}
          autosize
          minRows={1}
        />
      </Card>
      {Object.keys(fields).length > 0 && <Alert color="red">{t('fieldErrors')}</Alert>}
      <ApiError error={error} />
      <Group>
        <Button onClick={() => void submit()} loading={busy} data-testid="save-order">
          {editing === null ? t('save') : t('saveChanges')}
        </Button>
      </Group>
    </Stack>
  );
}
