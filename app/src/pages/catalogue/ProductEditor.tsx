/**
 * One product in a drawer: every field of the contract's product (PUT /v2/products/{id}), its
 * barcodes, its marketplace bindings (a marketplace of GET /v2/marketplaces and one of its
 * bindingNames with the value), and its stock per fulfilment warehouse and per batch (read only:
 * stock moves by supplies and orders, not by editing).
 */
import {
  ActionIcon,
  Button,
  Checkbox,
  Drawer,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Table,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { fieldErrorsOf } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { formatDay } from '../../format';
import { useText } from '../../i18n';
import { SideInputs } from '../../components/SideInputs';
import { useAction } from '../../hooks/use-action';
import { useList } from '../../hooks/use-list';

type Product = Schemas['Product'];
type NumberField = number | string;

/** One identifier of a product at a marketplace: {marketplaceId, <bindingName>: value} flattened for the form. */
interface BindingLine {
  marketplaceId: string | null;
  name: string | null;
  value: string;
}

interface Draft {
  name: string;
  nameEn: string;
  vendorCode: string;
  vat: string | null;
  priceDeclared: NumberField;
  priceCod: NumberField;
  weight: NumberField;
  volume: NumberField;
  width: NumberField;
  height: NumberField;
  length: NumberField;
  expirityDays: NumberField;
  photo: string;
  tnved: string;
  barcodes: string[];
  brand: string;
  producingCountry: string;
  markCodeRequired: boolean;
  batchAccounting: boolean;
  bindings: BindingLine[];
}

const numberOrEmpty = (value: number | null): NumberField => value ?? '';
const numberOrNull = (value: NumberField): number | null => (value === '' ? null : Number(value));
const textOrNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** A stored binding may name several identifiers: one form line each. */
function bindingLines(bindings: unknown[]): BindingLine[] {
  return bindings.flatMap((binding) => {
    if (!binding || typeof binding !== 'object') return [];
    const { marketplaceId, ...identifiers } = binding as Record<string, unknown>;
    return Object.entries(identifiers).map(([name, value]) => ({
      marketplaceId: String(marketplaceId),
      name,
      value: String(value),
    }));
  });
}

function draftOf(product: Product): Draft {
  return {
    name: product.name,
    nameEn: product.nameEn ?? '',
    vendorCode: product.vendorCode,
    vat: product.vat === null ? null : String(product.vat),
    priceDeclared: numberOrEmpty(product.priceDeclared),
    priceCod: numberOrEmpty(product.priceCod),
    weight: numberOrEmpty(product.weight),
    volume: numberOrEmpty(product.volume),
    width: numberOrEmpty(product.dimensions.width),
    height: numberOrEmpty(product.dimensions.height),
    length: numberOrEmpty(product.dimensions.length),
    expirityDays: numberOrEmpty(product.expirityDays),
    photo: product.photo ?? '',
    tnved: product.tnved ?? '',
    barcodes: product.barcodes,
    brand: product.brand ?? '',
    producingCountry: product.producingCountry ?? '',
    markCodeRequired: product.markCodeRequired,
    batchAccounting: product.batchAccounting,
    bindings: bindingLines(product.bindings),
  };
}

/** The PUT body: the whole product (what is left empty becomes empty, as the contract says of PUT). */
function bodyOf(draft: Draft) {
  return {
    name: draft.name,
    nameEn: textOrNull(draft.nameEn),
    vendorCode: draft.vendorCode,
    vat: draft.vat === null ? null : (Number(draft.vat) as 0 | 10 | 20),
    priceDeclared: numberOrNull(draft.priceDeclared),
    priceCod: numberOrNull(draft.priceCod),
    weight: numberOrNull(draft.weight),
    volume: numberOrNull(draft.volume),
    dimensions: {
      width: numberOrNull(draft.width),
      height: numberOrNull(draft.height),
      length: numberOrNull(draft.length),
    },
    expirityDays: numberOrNull(draft.expirityDays),
    photo: textOrNull(draft.photo),
    tnved: textOrNull(draft.tnved),
    barcodes: draft.barcodes,
    brand: textOrNull(draft.brand),
    producingCountry: textOrNull(draft.producingCountry)?.toUpperCase() ?? null,
    markCodeRequired: draft.markCodeRequired,
    batchAccounting: draft.batchAccounting,
    bindings: draft.bindings
      .filter((line) => line.marketplaceId && line.name)
      .map((line) => ({ marketplaceId: Number(line.marketplaceId), [line.name as string]: line.value })),
  };
}

function StockOfProduct({ product }: { product: Product }) {
  const { t, locale } = useText();
  if (product.rests.length === 0) return <Text c="gray.7">{t('noStock')}</Text>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped data-testid="product-stock" aria-label={t('stockOfProduct')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('fulfilmentWarehouse')}</Table.Th>
            <Table.Th>{t('batch')}</Table.Th>
            <Table.Th>{t('onHand')}</Table.Th>
            <Table.Th>{t('reserved')}</Table.Th>
            <Table.Th>{t('free')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {product.rests.flatMap((rest) => [
            <Table.Tr key={rest.warehouseId} fw={700}>
              <Table.Td>{rest.name}</Table.Td>
              <Table.Td>{rest.batches.length ? t('allBatches') : '—'}</Table.Td>
              <Table.Td>{rest.quantity}</Table.Td>
              <Table.Td>{rest.reserved}</Table.Td>
              <Table.Td>{rest.available}</Table.Td>
            </Table.Tr>,
            ...rest.batches.map((batch) => (
              <Table.Tr key={`${rest.warehouseId}-${batch.batch}`}>
                <Table.Td />
                <Table.Td>
                  {batch.batch}
                  {batch.expires ? ` (${t('expires')} ${formatDay(batch.expires, locale)})` : ''}
                </Table.Td>
                <Table.Td>{batch.quantity}</Table.Td>
                <Table.Td>{batch.reserved}</Table.Td>
                <Table.Td>{batch.available}</Table.Td>
              </Table.Tr>
            )),
          ])}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function BindingsEditor({ lines, onChange }: { lines: BindingLine[]; onChange(lines: BindingLine[]): void }) {
  const { t, locale } = useText();
  const { data: marketplaces } = useList(() => api.GET('/v2/marketplaces'), 'marketplaces');
  const set = (index: number, change: Partial<BindingLine>) =>
    onChange(lines.map((line, at) => (at === index ? { ...line, ...change } : line)));
  return (
    <Stack gap="xs">
      {lines.map((line, index) => {
        const marketplace = (marketplaces ?? []).find((item) => String(item.id) === line.marketplaceId);
        return (
          <Group key={index} align="end" wrap="wrap" gap="xs">
            <Select
              label={`${t('marketplace')} ${index + 1}`}
              value={line.marketplaceId}
              onChange={(value) => set(index, { marketplaceId: value, name: null })}
              data={(marketplaces ?? []).map((item) => ({ value: String(item.id), label: item.name }))}
              w={170}
            />
            <Select
              label={`${t('identifier')} ${index + 1}`}
              value={line.name}
              onChange={(value) => set(index, { name: value })}
              data={Object.entries(marketplace?.bindingNames ?? {}).map(([name, label]) => ({
                value: name,
                label: label[locale] ?? name,
              }))}
              w={170}
            />
            <TextInput
              label={`${t('value')} ${index + 1}`}
              value={line.value}
              onChange={(event) => set(index, { value: event.currentTarget.value })}
              w={170}
            />
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={`${t('delete')} ${index + 1}`}
              onClick={() => onChange(lines.filter((_, at) => at !== index))}
            >
              ×
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button
          size="xs"
          variant="default"
          onClick={() => onChange([...lines, { marketplaceId: null, name: null, value: '' }])}
          data-testid="add-binding"
        >
          {t('addBinding')}
        </Button>
      </Group>
    </Stack>
  );
}

export function ProductEditor({
  productId,
  onClose,
  onSaved,
}: {
  productId: number | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useText();
  const [product, setProduct] = useState<Product | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const loading = useAction();
  const saving = useAction();
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    setProduct(null);
    setDraft(null);
    setSaved(false);
    if (productId === null) return;
    void loading.run(async () => {
      const read = ok(await api.GET('/v2/products/{id}', { params: { path: { id: productId } } }));
      setProduct(read);
      setDraft(draftOf(read));
    });
  }, [productId]);

  const fieldErrors = fieldErrorsOf(saving.error);
  const set = (change: Partial<Draft>) => setDraft((current) => (current ? { ...current, ...change } : current));
  const save = async () => {
    if (productId === null || !draft) return;
    setSaved(false);
    const done = await saving.run(async () =>
      ok(await api.PUT('/v2/products/{id}', { params: { path: { id: productId } }, body: bodyOf(draft) })),
    );
    if (done) {
      setSaved(true);
      onSaved();
    }
  };
  const numberInput = (key: 'priceDeclared' | 'priceCod' | 'weight' | 'volume' | 'expirityDays', scale: number) => (
    <NumberInput
      label={t(key)}
      value={draft?.[key] ?? ''}
      onChange={(value) => set({ [key]: value })}
      min={0}
      decimalScale={scale}
      error={fieldErrors[key]}
    />
  );

  return (
    <Drawer
      opened={productId !== null}
      onClose={onClose}
      position="right"
      size="xl"
      closeButtonProps={{ 'aria-label': t('dismiss') }}
      title={product ? `${product.vendorCode}: ${product.name}` : t('editProduct')}
    >
      <ApiError error={loading.error} />
      {draft && product && (
        <Stack data-testid="product-editor">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('name')}
              required
              value={draft.name}
              onChange={(event) => set({ name: event.currentTarget.value })}
              error={fieldErrors.name}
            />
            <TextInput
              label={t('nameEn')}
              value={draft.nameEn}
              onChange={(event) => set({ nameEn: event.currentTarget.value })}
              error={fieldErrors.nameEn}
            />
            <TextInput
              label={t('vendorCode')}
              required
              value={draft.vendorCode}
              onChange={(event) => set({ vendorCode: event.currentTarget.value })}
              error={fieldErrors.vendorCode}
            />
            <Select
              label={t('vat')}
              clearable
              value={draft.vat}
              onChange={(value) => set({ vat: value })}
              data={['0', '10', '20']}
              error={fieldErrors.vat}
            />
            {numberInput('priceDeclared', 2)}
            {numberInput('priceCod', 2)}
            {numberInput('weight', 3)}
            {numberInput('volume', 6)}
          </SimpleGrid>
          <SideInputs sides={draft} onChange={set} fieldErrors={fieldErrors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {numberInput('expirityDays', 0)}
            <TextInput
              label={t('photo')}
              value={draft.photo}
              onChange={(event) => set({ photo: event.currentTarget.value })}
              error={fieldErrors.photo}
            />
            <TextInput
              label={t('tnved')}
              value={draft.tnved}
              onChange={(event) => set({ tnved: event.currentTarget.value })}
              error={fieldErrors.tnved}
            />
            <TextInput
              label={t('brand')}
              value={draft.brand}
              onChange={(event) => set({ brand: event.currentTarget.value })}
              error={fieldErrors.brand}
            />
            <TextInput
              label={t('producingCountry')}
              value={draft.producingCountry}
              maxLength={2}
              onChange={(event) => set({ producingCountry: event.currentTarget.value })}
              error={fieldErrors.producingCountry}
            />
          </SimpleGrid>
          <TagsInput
            label={t('barcodes')}
            placeholder={t('barcodesHint')}
            value={draft.barcodes}
            onChange={(barcodes) => set({ barcodes })}
            error={Object.entries(fieldErrors).find(([field]) => field.startsWith('barcodes'))?.[1]}
            data-testid="product-barcodes"
          />
          <Group>
            <Checkbox
              label={t('markCodeRequired')}
              checked={draft.markCodeRequired}
              onChange={(event) => set({ markCodeRequired: event.currentTarget.checked })}
            />
            <Checkbox
              label={t('batchAccounting')}
              checked={draft.batchAccounting}
              onChange={(event) => set({ batchAccounting: event.currentTarget.checked })}
            />
          </Group>
          <Title order={4} size="h6">
            {t('bindings')}
          </Title>
          <BindingsEditor lines={draft.bindings} onChange={(bindings) => set({ bindings })} />
          <ApiError error={saving.error} />
          <Group>
            <Button onClick={() => void save()} data-testid="save-product">
              {t('applyChanges')}
            </Button>
            {saved && (
              <Text role="status" data-testid="product-saved">
                {t('saved')}
              </Text>
            )}
          </Group>
          <Title order={4} size="h6">
            {t('stockOfProduct')}
          </Title>
          <StockOfProduct product={product} />
        </Stack>
      )}
    </Drawer>
  );
}
