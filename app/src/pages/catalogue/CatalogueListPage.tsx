/**
 * A catalogue list (kits, boxes): its title and "new" button, one search field, the
 * table paged by 50 with an edit and a delete button per row, and the page's own dialog; plus the
 * dialog's frame and draft. Each page keeps its fields, columns and calls in its own file.
 */
import { Button, Group, Modal, Stack, TextInput, Title, type ModalProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState, type ReactNode } from 'react';
import { ok } from '../../api';
import { fieldErrorsOf } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { useText } from '../../i18n';
import { useAction } from '../../hooks/use-action';
import { useList, type Answer } from '../../hooks/use-list';

const PER_PAGE = 50;

export interface ListQuery {
  page: number;
  perPage: number;
  /** The search typed (debounced), empty when none. */
  typed: string;
}

export interface DraftDialogProps<Draft> {
  /** The draft to edit; null keeps the dialog closed. */
  draft: Draft | null;
  onClose(): void;
  onSaved(): void;
}

export function CatalogueListPage<Row, Draft>({
  title,
  newLabel,
  newTestId,
  searchLabel,
  tableTestId,
  load,
  remove,
  columns,
  rowKey,
  rowName,
  rowProps,
  emptyDraft,
  draftOf,
  Dialog,
}: {
  title: string;
  newLabel: string;
  newTestId: string;
  searchLabel: string;
  tableTestId: string;
  load(query: ListQuery): Promise<Answer<Row[]>>;
  remove(row: Row): Promise<Answer<unknown>>;
  /** The page's columns; the actions column is added last. */
  columns: Array<DataTableColumn<Row>>;
  rowKey(row: Row): number;
  /** How a row is named in its buttons' accessible names. */
  rowName(row: Row): string;
  rowProps(row: Row): Record<string, string>;
  emptyDraft(): Draft;
  draftOf(row: Row): Draft;
  Dialog(props: DraftDialogProps<Draft>): ReactNode;
}) {
  const { t } = useText();
  const [search, setSearch] = useState('');
  const [typed] = useDebouncedValue(search, 300);
  const [page, setPage] = useState(1);
  useEffect(() => setPage(1), [typed]);
  const query: ListQuery = { page, perPage: PER_PAGE, typed };
  const list = useList(() => load(query), JSON.stringify(query));
  const [editing, setEditing] = useState<Draft | null>(null);
  const removal = useAction();

  const withActions: Array<DataTableColumn<Row>> = [
    ...columns,
    {
      key: 'actions',
      header: t('actions'),
      cell: (row) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            onClick={() => setEditing(draftOf(row))}
            aria-label={`${t('edit')} ${rowName(row)}`}
          >
            {t('edit')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            aria-label={`${t('delete')} ${rowName(row)}`}
            onClick={async () => {
              if (await removal.run(async () => ok(await remove(row)))) list.reload();
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
        <Title order={2}>{title}</Title>
        <Button onClick={() => setEditing(emptyDraft())} data-testid={newTestId}>
          {newLabel}
        </Button>
      </Group>
      <TextInput
        label={searchLabel}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        maw={360}
      />
      <ApiError error={list.error ?? removal.error} />
      <DataTable
        testId={tableTestId}
        columns={withActions}
        rows={list.data}
        rowKey={rowKey}
        rowProps={rowProps}
        labels={{ empty: t('nothingYet'), total: (count) => t('totalCount', { count }) }}
        paging={{ page, perPage: PER_PAGE, total: list.total, onPage: setPage }}
      />
      <Dialog
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

/**
 * A dialog's copy of its draft (taken again when another draft is opened), its save's refusal and
 * field errors; `save` runs the page's create or update call and calls `onSaved` once it succeeds.
 */
export function useDialogDraft<Draft>(draft: Draft | null, onSaved: () => void) {
  const [value, setValue] = useState<Draft | null>(draft);
  useEffect(() => setValue(draft), [draft]);
  const saving = useAction();
  const fieldErrors = fieldErrorsOf(saving.error);
  const set = (change: Partial<Draft>) => setValue((current) => (current ? { ...current, ...change } : current));
  const save = async (call: () => Promise<Answer<unknown>>) => {
    if (await saving.run(async () => ok(await call()))) onSaved();
  };
  return { value, setValue, set, save, error: saving.error, fieldErrors };
}

/** The frame of a create-or-edit dialog: the fields given, the save's refusal, save and dismiss. */
export function DraftDialog({
  title,
  isNew,
  testId,
  saveTestId,
  error,
  onSave,
  onClose,
  size,
  children,
}: {
  title: string;
  isNew: boolean;
  testId: string;
  saveTestId: string;
  error: unknown;
  onSave(): void;
  onClose(): void;
  size?: ModalProps['size'];
  children: ReactNode;
}) {
  const { t } = useText();
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ 'aria-label': t('dismiss') }} title={title} size={size}>
      <Stack data-testid={testId}>
        {children}
        <ApiError error={error} />
        <Group>
          <Button onClick={onSave} data-testid={saveTestId}>
            {isNew ? t('create') : t('applyChanges')}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t('dismiss')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
