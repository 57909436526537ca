/** A product chosen by searching the catalogue (vendor code and name substrings, 20 each): the catalogue may hold 100k products. */
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { api } from '../../api';
import { useList } from '../../hooks/use-list';

export function ProductPicker({
  label,
  value,
  known,
  onChange,
  testId,
}: {
  label: string;
  value: string | null;
  /** Labels of products already chosen (an edited kit's goods), so they show before any search. */
  known: Record<string, string>;
  onChange(productId: string | null, label: string | null): void;
  testId?: string;
}) {
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search, 250);
  const byCode = useList(
    () => api.GET('/v2/products', { params: { query: { perPage: 20, ...(typed ? { vendorCode: typed } : {}) } } }),
    `code:${typed}`,
  );
  const byName = useList(
    () => api.GET('/v2/products', { params: { query: { perPage: 20, ...(typed ? { name: typed } : {}) } } }),
    `name:${typed}`,
  );
  const found = new Map<string, string>(Object.entries(known));
  for (const product of [...(byCode.data ?? []), ...(byName.data ?? [])])
    found.set(String(product.id), `${product.vendorCode} — ${product.name}`);
  return (
    <Select
      label={label}
      searchable
      value={value}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(id) => onChange(id, id ? (found.get(id) ?? null) : null)}
      data={[...found].map(([id, text]) => ({ value: id, label: text }))}
      filter={({ options }) => options}
      data-testid={testId}
      miw={240}
    />
  );
}
