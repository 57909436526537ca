/** Kits (contract 2.6, 4.7): the list with its search, a kit created or edited in a dialog (shop, name, vendor code, discount, goods with counts), delete. */
import { Button, Group, NumberInput, Select, SimpleGrid, TextInput, Title } from '@mantine/core';
import { api, idempotencyKey, type Schemas } from '../../api';
import { useText } from '../../i18n';
import { CatalogueListPage, DraftDialog, useDialogDraft, type DraftDialogProps } from './CatalogueListPage';
import { useReference } from '../../reference';
import { ProductPicker } from './ProductPicker';

type Kit = Schemas['Kit'];

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

function KitDialog({ draft, onClose, onSaved }: DraftDialogProps<KitDraft>) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const { value: kit, setValue: setKit, set, save: saveBy, error, fieldErrors } = useDialogDraft(draft, onSaved);
  if (!kit) return null;
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
    const id = kit.id;
    await saveBy(() =>
      id === null
        ? api.POST('/v2/kits', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body })
        : api.PUT('/v2/kits/{id}', { params: { path: { id } }, body }),
    );
  };

  return (
    <DraftDialog
      title={kit.id === null ? t('newKit') : t('editKit')}
      isNew={kit.id === null}
      testId="kit-dialog"
      saveTestId="save-kit"
      error={error}
      onSave={() => void save()}
      onClose={onClose}
      size="lg"
    >
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
    </DraftDialog>
  );
}

export function KitsPage() {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const shopName = (id: number) => reference?.shops.find((shop) => shop.id === id)?.name ?? String(id);
  return (
    <CatalogueListPage<Kit, KitDraft>
      title={t('kits')}
      newLabel={t('newKit')}
      newTestId="new-kit"
      searchLabel={t('searchNameOrCode')}
      tableTestId="kits"
      load={({ typed, ...paging }) =>
        api.GET('/v2/kits', { params: { query: { ...paging, ...(typed ? { search: typed } : {}) } } })
      }
      remove={(kit) => api.DELETE('/v2/kits/{id}', { params: { path: { id: kit.id } } })}
      columns={[
        { key: 'name', header: t('name'), cell: (kit) => kit.name },
        { key: 'vendorCode', header: t('vendorCode'), cell: (kit) => kit.vendorCode },
        { key: 'shop', header: t('shop'), cell: (kit) => shopName(kit.shopId) },
        { key: 'discount', header: t('discountPercent'), cell: (kit) => kit.discount },
        {
          key: 'products',
          header: t('kitProducts'),
          cell: (kit) => kit.products.map((product) => `${product.vendorCode} × ${product.count}`).join(', '),
        },
      ]}
      rowKey={(kit) => kit.id}
      rowName={(kit) => kit.vendorCode}
      rowProps={(kit) => ({ 'data-kit': kit.vendorCode })}
      emptyDraft={emptyKit}
      draftOf={draftOf}
      Dialog={KitDialog}
    />
  );
}
