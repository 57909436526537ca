/** The order form's goods: typed lines with their prices, weight and sizes, or products picked from the catalogue. */
import { Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../../../api';
import { ApiError } from '../../../components/ApiError';
import { formatMoney } from '../../../format';
import { useText } from '../../../i18n';
import { declaredValueOf, EMPTY_DRAFT, lineOfProduct, type GoodsLine } from '../order-draft';
import { numberOrNull, type FormPartProps } from './form-part';

type Product = Schemas['Product'];

/**
 * Goods from the catalogue: a search (name and vendor code substrings, 10 each) rather than a
 * list, for catalogues of 100k products. The choice becomes an order line with the product's
 * price, weight, sizes and barcode, still editable; typed lines stay possible.
 */
function CatalogueSearch({ onPick }: { onPick(product: Product): void }) {
  const { t, locale } = useText();
  const [typed, setTyped] = useState('');
  const [debounced] = useDebouncedValue(typed, 250);
  const [found, setFound] = useState<Product[]>([]);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    const q = debounced.trim();
    if (q.length < 2) return setFound([]);
    let live = true;
    Promise.all([
      api.GET('/v2/products', { params: { query: { name: q, perPage: 10 } } }).then(ok),
      api.GET('/v2/products', { params: { query: { vendorCode: q, perPage: 10 } } }).then(ok),
    ]).then(
      ([byName, byCode]) => {
        if (!live) return;
        const seen = new Set<number>();
        setFound([...byCode, ...byName].filter((product) => !seen.has(product.id) && Boolean(seen.add(product.id))));
        setError(null);
      },
      (caught: unknown) => live && setError(caught),
    );
    return () => {
      live = false;
    };
  }, [debounced]);

  return (
    <Stack gap={4} w={{ base: '100%', sm: 420 }}>
      <Select
        label={t('fromCatalogue')}
        placeholder={t('fromCataloguePlaceholder')}
        searchable
        value={null}
        searchValue={typed}
        onSearchChange={setTyped}
        filter={({ options }) => options}
        nothingFoundMessage={debounced.trim().length >= 2 ? t('nothingFound') : undefined}
        data={found.map((product) => ({
          value: String(product.id),
          label: `${product.vendorCode} — ${product.name} (${formatMoney(product.priceDeclared, locale)})`,
        }))}
        onChange={(value) => {
          const product = found.find((candidate) => String(candidate.id) === value);
          if (product) onPick(product);
          setTyped('');
        }}
        data-testid="catalogue-search"
      />
      <ApiError error={error} />
    </Stack>
  );
}

export function GoodsCard({ draft, update, err }: FormPartProps) {
  const { t, locale } = useText();
  const setLine = (index: number, patch: Partial<GoodsLine>) =>
    update({ goods: draft.goods.map((line, at) => (at === index ? { ...line, ...patch } : line)) });
  // a product of the catalogue takes the place of the untouched first line, else is added
  const addProduct = (product: Product) => {
    const untouched = draft.goods.length === 1 && !draft.goods[0].name && !draft.goods[0].vendorCode;
    update({ goods: [...(untouched ? [] : draft.goods), lineOfProduct(product)] });
  };

  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('goods')}
      </Title>
      <Stack gap="xs">
        {draft.goods.map((line, index) => (
          <SimpleGrid key={index} cols={{ base: 2, sm: 5, lg: 10 }} spacing="xs">
            <TextInput
              label={t('goodsName')}
              value={line.name}
              onChange={(event) => setLine(index, { name: event.currentTarget.value })}
              error={err(`products[${index}].name`, `products.${index}.name`)}
            />
            <TextInput
              label={t('vendorCode')}
              value={line.vendorCode}
              onChange={(event) => setLine(index, { vendorCode: event.currentTarget.value })}
            />
            <NumberInput
              label={t('count')}
              min={1}
              value={line.count}
              onChange={(value) => setLine(index, { count: Number(value) || 1 })}
            />
            <NumberInput
              label={t('priceDeclaredEach')}
              min={0}
              value={line.priceDeclared ?? ''}
              onChange={(value) => setLine(index, { priceDeclared: numberOrNull(value) })}
            />
            <NumberInput
              label={t('priceCodEach')}
              min={0}
              value={line.priceCod ?? ''}
              onChange={(value) => setLine(index, { priceCod: numberOrNull(value) })}
            />
            <NumberInput
              label={t('weight')}
              min={0.001}
              step={0.1}
              decimalScale={3}
              value={line.weight ?? ''}
              onChange={(value) => setLine(index, { weight: numberOrNull(value) })}
              error={err(`products[${index}].weight`, `products.${index}.weight`)}
            />
            <NumberInput
              label={t('width')}
              min={1}
              max={999}
              value={line.width ?? ''}
              onChange={(value) => setLine(index, { width: numberOrNull(value) })}
            />
            <NumberInput
              label={t('height')}
              min={1}
              max={999}
              value={line.height ?? ''}
              onChange={(value) => setLine(index, { height: numberOrNull(value) })}
            />
            <NumberInput
              label={t('length')}
              min={1}
              max={999}
              value={line.length ?? ''}
              onChange={(value) => setLine(index, { length: numberOrNull(value) })}
            />
            <Button
              variant="subtle"
              color="red"
              mt={24}
              disabled={draft.goods.length === 1}
              onClick={() => update({ goods: draft.goods.filter((_, at) => at !== index) })}
            >
              {t('remove')}
            </Button>
          </SimpleGrid>
        ))}
        <Group>
          <Button
            variant="default"
            size="xs"
            onClick={() => update({ goods: [...draft.goods, { ...EMPTY_DRAFT.goods[0] }] })}
          >
            {t('addGoods')}
          </Button>
          <CatalogueSearch onPick={addProduct} />
        </Group>
        {/* the order's declared value is the lines' (one field per line): its sum is shown, not asked again */}
        <Text size="sm" data-testid="declared-total">
          {t('declaredTotal')}: {formatMoney(declaredValueOf(draft), locale)}
        </Text>
        {err('priceDeclared') && (
          <Text c="red" size="sm">
            {err('priceDeclared')}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
