/** Boxes (contract 2.5, 4.7): the list with its name search, a box created or edited in a dialog (name, sides, weight), delete. */
import { Button, Group, Modal, NumberInput, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api, idempotencyKey, ok, type Schemas } from '../../api';
import { fieldErrorsOf } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { useText } from '../../i18n';
import { useAction, useList } from '../../part2/use-list';

type Box = Schemas['Box'];
const PER_PAGE = 50;

interface BoxDraft {
  id: number | null;
  name: string;
  width: number | string;
  height: number | string;
  length: number | string;
  weight: number | string;
}

const emptyBox = (): BoxDraft => ({ id: null, name: '', width: '', height: '', length: '', weight: '' });
const draftOf = (box: Box): BoxDraft => ({
  id: box.id,
  name: box.name ?? '',
  ...box.dimensions,
  weight: box.weight ?? '',
});

function BoxDialog({ draft, onClose, onSaved }: { draft: BoxDraft | null; onClose(): void; onSaved(): void }) {
  const { t } = useText();
  const [box, setBox] = useState<BoxDraft | null>(draft);
  useEffect(() => setBox(draft), [draft]);
  const saving = useAction();
  const fieldErrors = fieldErrorsOf(saving.error);
  if (!box) return null;
  const set = (change: Partial<BoxDraft>) => setBox({ ...box, ...change });
  const save = async () => {
    const body = {
      name: box.name.trim() === '' ? null : box.name.trim(),
      dimensions: { width: Number(box.width), height: Number(box.height), length: Number(box.length) },
      weight: box.weight === '' ? null : Number(box.weight),
    };
    const done = await saving.run(async () => {
      if (box.id === null)
        ok(await api.POST('/v2/boxes', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body }));
      else ok(await api.PUT('/v2/boxes/{id}', { params: { path: { id: box.id } }, body }));
    });
    if (done) onSaved();
  };
  const side = (key: 'width' | 'height' | 'length') => (
    <NumberInput
      label={t(key)}
      required
      value={box[key]}
      onChange={(value) => set({ [key]: value })}
      min={1}
      max={999}
      allowDecimal={false}
      error={fieldErrors[`dimensions.${key}`]}
    />
  );
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': t('dismiss') }}
      title={box.id === null ? t('newBox') : t('editBox')}
    >
      <Stack data-testid="box-dialog">
        <TextInput
          label={t('name')}
          value={box.name}
          onChange={(event) => set({ name: event.currentTarget.value })}
          error={fieldErrors.name}
        />
        <SimpleGrid cols={3}>
          {side('width')}
          {side('height')}
          {side('length')}
        </SimpleGrid>
        <NumberInput
          label={t('weight')}
          value={box.weight}
          onChange={(value) => set({ weight: value })}
          min={0}
          decimalScale={3}
          error={fieldErrors.weight}
        />
        <ApiError error={saving.error} />
        <Group>
          <Button onClick={() => void save()} data-testid="save-box">
            {box.id === null ? t('create') : t('applyChanges')}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t('dismiss')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function BoxesPage() {
  const { t } = useText();
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [typed]);
  const query = { page, perPage: PER_PAGE, ...(typed ? { name: typed } : {}) };
  const list = useList(() => api.GET('/v2/boxes', { params: { query } }), JSON.stringify(query));
  const [editing, setEditing] = useState<BoxDraft | null>(null);
  const removal = useAction();
  const label = (box: Box) => box.name ?? `#${box.id}`;

  const columns: Array<DataTableColumn<Box>> = [
    { key: 'name', header: t('name'), cell: label },
    {
      key: 'sides',
      header: `${t('width')} × ${t('height')} × ${t('length')}`,
      cell: (box) => `${box.dimensions.width} × ${box.dimensions.height} × ${box.dimensions.length}`,
    },
    { key: 'weight', header: t('weight'), cell: (box) => box.weight ?? '—' },
    {
      key: 'actions',
      header: t('actions'),
      cell: (box) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            onClick={() => setEditing(draftOf(box))}
            aria-label={`${t('edit')} ${label(box)}`}
          >
            {t('edit')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            aria-label={`${t('delete')} ${label(box)}`}
            onClick={async () => {
              if (
                await removal.run(async () =>
                  ok(await api.DELETE('/v2/boxes/{id}', { params: { path: { id: box.id } } })),
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
        <Title order={2}>{t('boxes')}</Title>
        <Button onClick={() => setEditing(emptyBox())} data-testid="new-box">
          {t('newBox')}
        </Button>
      </Group>
      <TextInput
        label={t('name')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={360}
      />
      <ApiError error={list.error ?? removal.error} />
      <DataTable
        testId="boxes"
        columns={columns}
        rows={list.data}
        rowKey={(box) => box.id}
        rowProps={(box) => ({ 'data-box': label(box) })}
        labels={{ empty: t('nothingYet'), total: (count) => t('totalCount', { count }) }}
        paging={{ page, perPage: PER_PAGE, total: list.total, onPage: setPage }}
      />
      <BoxDialog
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
