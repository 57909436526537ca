/** Kits (contract 2.6, 4.7): the list with its search, a kit created or edited in a dialog (shop, name, vendor code, discount, goods with counts), delete. */
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { fieldErrorsOf } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { useText } from '../../i18n';
import { useAction, useList } from '../../part2/use-list';
import { useReference } from '../../reference';
import { ProductPicker } from './ProductPicker';

type Kit = Schemas['Kit'];
const PER_PAGE = 50;

interface Line {
  productId: string | null;
  count: number | string;
}
interface KitDraft {
  id: number | null;
  shopId: string | null;
  name: string;
  vendorCode: string;
  discount: number | string;
  lines: Line[];
  /** Labels of the goods already in the kit. */
  known: Record<string, string>;
}

const emptyKit = (): KitDraft => ({
  id: null,
  shopId: null,
  name: '',
  vendorCode: '',
  discount: 0,
  lines: [{ productId: null, count: 1 }],
  known: {},
});

function draftOf(kit: Kit): KitDraft {
  return {
    id: kit.id,
    shopId: String(kit.shopId),
    name: kit.name,
    vendorCode: kit.vendorCode,
    discount: kit.discount,
    lines: kit.products.map((product) => ({ productId: String(product.id), count: product.count })),
    known: Object.fromEntries(
      kit.products.map((product) => [String(product.id), `${product.vendorCode} — ${product.name}`]),
    ),
  };
}

function KitDialog({ draft, onClose, onSaved }: { draft: KitDraft | null; onClose(): void; onSaved(): void }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const [kit, setKit] = useState<KitDraft | null>(draft);
  useEffect(() => setKit(draft), [draft]);
  const saving = useAction();
  const fieldErrors = fieldErrorsOf(saving.error);
  if (!kit) return null;
  const set = (change: Partial<KitDraft>) => setKit({ ...kit, ...change });
  const setLine = (index: number, change: Partial<Line>) =>
    set({ lines: kit.lines.map((line, at) => (at === index ? { ...line, ...change } : line)) });
  const shopId = kit.shopId ?? (reference?.shops[0] ? String(reference.shops[0].id) : null);

  const save = async () => {
    const body = {
      ...(shopId ? { shopId: Number(shopId) } : {}),
      name: kit.name,
      vendorCode: kit.vendorCode,
      discount: Number(kit.discount) || 0,
      products: kit.lines
        .filter((line) => line.productId)
        .map((line) => ({ id: Number(line.productId), count: Number(line.count) })),
    };
    const done = await saving.run(async () => {
      if (kit.id === null)
        ok(await api.POST('/v2/kits', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body }));
      else ok(await api.PUT('/v2/kits/{id}', { params: { path: { id: kit.id } }, body }));
    });
    if (done) onSaved();
  };

  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('dismiss') }}
      title={kit.id === null ? t('newKit') : t('editKit')}
      size="lg"
    >
      <Stack data-testid="kit-dialog">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label={t('shop')}
            value={shopId}
            onChange={(value) => set({ shopId: value })}
            data={(reference?.shops ?? []).map((shop) => ({ value: String(shop.id), label: shop.name }))}
            disabled={kit.id !== null}
            error={fieldErrors.shopId}
          />
          <TextInput
            label={t('name')}
            required
            value={kit.name}
            onChange={(event) => set({ name: event.currentTarget.value })}
            error={fieldErrors.name}
          />
          <TextInput
            label={t('vendorCode')}
            required
            value={kit.vendorCode}
            onChange={(event) => set({ vendorCode: event.currentTarget.value })}
            error={fieldErrors.vendorCode}
          />
          <NumberInput
            label={t('discountPercent')}
            value={kit.discount}
            onChange={(value) => set({ discount: value })}
            min={0}
            max={100}
            error={fieldErrors.discount}
          />
        </SimpleGrid>
        <Title order={4} size="h6">
          {t('kitProducts')}
        </Title>
        {kit.lines.map((line, index) => (
          <Group key={index} align="end" gap="xs">
            <ProductPicker
              label={`${t('product')} ${index + 1}`}
              value={line.productId}
              known={kit.known}
              onChange={(productId, label) => {
                setKit({
                  ...kit,
                  known: productId && label ? { ...kit.known, [productId]: label } : kit.known,
                  lines: kit.lines.map((item, at) => (at === index ? { ...item, productId } : item)),
                });
              }}
              testId={`kit-product-${index}`}
            />
            <NumberInput
              label={`${t('count')} ${index + 1}`}
              value={line.count}
              onChange={(count) => setLine(index, { count })}
              min={1}
              w={110}
              error={fieldErrors[`products[${index}].count`]}
            />
            <Button
              variant="default"
              onClick={() => set({ lines: kit.lines.filter((_, at) => at !== index) })}
              aria-label={`${t('delete')} ${index + 1}`}
            >
              ×
            </Button>
          </Group>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => set({ lines: [...kit.lines, { productId: null, count: 1 }] })}
          >
            {t('addLine')}
          </Button>
        </Group>
        <ApiError error={saving.error} />
        <Group>
          <Button onClick={() => void save()} data-testid="save-kit">
            {kit.id === null ? t('create') : t('applyChanges')}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t('dismiss')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function KitsPage() {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [typed]);
  const query = { page, perPage: PER_PAGE, ...(typed ? { search: typed } : {}) };
  const list = useList(() => api.GET('/v2/kits', { params: { query } }), JSON.stringify(query));
  const [editing, setEditing] = useState<KitDraft | null>(null);
  const removal = useAction();
  const shopName = (id: number) => reference?.shops.find((shop) => shop.id === id)?.name ?? String(id);

  const columns: Array<DataTableColumn<Kit>> = [
    { key: 'name', header: t('name'), cell: (kit) => kit.name },
    { key: 'vendorCode', header: t('vendorCode'), cell: (kit) => kit.vendorCode },
    { key: 'shop', header: t('shop'), cell: (kit) => shopName(kit.shopId) },
    { key: 'discount', header: t('discountPercent'), cell: (kit) => kit.discount },
    {
      key: 'products',
      header: t('kitProducts'),
      cell: (kit) => kit.products.map((product) => `${product.vendorCode} × ${product.count}`).join(', '),
    },
    {
      key: 'actions',
      header: t('actions'),
      cell: (kit) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            onClick={() => setEditing(draftOf(kit))}
            aria-label={`${t('edit')} ${kit.vendorCode}`}
          >
            {t('edit')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            aria-label={`${t('delete')} ${kit.vendorCode}`}
            onClick={async () => {
              if (
                await removal.run(async () =>
                  ok(await api.DELETE('/v2/kits/{id}', { params: { path: { id: kit.id } } })),
                )
              )
                list.reload();
            }}
          >
            {t('delete')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('kits')}</Title>
        <Button onClick={() => setEditing(emptyKit())} data-testid="new-kit">
          {t('newKit')}
        </Button>
      </Group>
      <TextInput
        label={t('searchNameOrCode')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={360}
      />
      <ApiError error={list.error ?? removal.error} />
      <DataTable
        testId="kits"
        columns={columns}
        rows={list.data}
        rowKey={(kit) => kit.id}
        rowProps={(kit) => ({ 'data-kit': kit.vendorCode })}
        labels={{ empty: t('nothingYet'), total: (count) => t('totalCount', { count }) }}
        paging={{ page, perPage: PER_PAGE, total: list.total, onPage: setPage }}
      />
      <KitDialog
        draft={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          list.reload();
        }}
      />
    </Stack>
  );
}
