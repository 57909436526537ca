/** Boxes (contract 2.5, 4.7): the list with its name search, a box created or edited in a dialog (name, sides, weight), delete. */
import { NumberInput, TextInput } from '@mantine/core';
import { api, idempotencyKey, type Schemas } from '../../api';
import { useText } from '../../i18n';
import { CatalogueListPage, DraftDialog, useDialogDraft, type DraftDialogProps } from './CatalogueListPage';
import { SideInputs } from '../../components/SideInputs';

type Box = Schemas['Box'];

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

function BoxDialog({ draft, onClose, onSaved }: DraftDialogProps<BoxDraft>) {
  const { t } = useText();
  const { value: box, set, save: saveBy, error, fieldErrors } = useDialogDraft(draft, onSaved);
  if (!box) return null;
  const save = async () => {
    const body = {
      name: box.name.trim() === '' ? null : box.name.trim(),
      dimensions: { width: Number(box.width), height: Number(box.height), length: Number(box.length) },
      weight: box.weight === '' ? null : Number(box.weight),
    };
    const id = box.id;
    await saveBy(() =>
      id === null
        ? api.POST('/v2/boxes', { params: { header: { 'Idempotency-Key': idempotencyKey() } }, body })
        : api.PUT('/v2/boxes/{id}', { params: { path: { id } }, body }),
    );
  };
  return (
    <DraftDialog
      title={box.id === null ? t('newBox') : t('editBox')}
      isNew={box.id === null}
      testId="box-dialog"
      saveTestId="save-box"
      error={error}
      onSave={() => void save()}
      onClose={onClose}
    >
      <TextInput
        label={t('name')}
        value={box.name}
        onChange={(event) => set({ name: event.currentTarget.value })}
        error={fieldErrors.name}
      />
      <SideInputs sides={box} onChange={set} fieldErrors={fieldErrors} required />
      <NumberInput
        label={t('weight')}
        value={box.weight}
        onChange={(value) => set({ weight: value })}
        min={0}
        decimalScale={3}
        error={fieldErrors.weight}
      />
    </DraftDialog>
  );
}

export function BoxesPage() {
  const { t } = useText();
  const label = (box: Box) => box.name ?? `#${box.id}`;
  return (
    <CatalogueListPage<Box, BoxDraft>
      title={t('boxes')}
      newLabel={t('newBox')}
      newTestId="new-box"
      searchLabel={t('name')}
      tableTestId="boxes"
      load={({ typed, ...paging }) =>
        api.GET('/v2/boxes', { params: { query: { ...paging, ...(typed ? { name: typed } : {}) } } })
      }
      remove={(box) => api.DELETE('/v2/boxes/{id}', { params: { path: { id: box.id } } })}
      columns={[
        { key: 'name', header: t('name'), cell: label },
        {
          key: 'sides',
          header: `${t('width')} × ${t('height')} × ${t('length')}`,
          cell: (box) => `${box.dimensions.width} × ${box.dimensions.height} × ${box.dimensions.length}`,
        },
        { key: 'weight', header: t('weight'), cell: (box) => box.weight ?? '—' },
      ]}
      rowKey={(box) => box.id}
      rowName={label}
      rowProps={(box) => ({ 'data-box': label(box) })}
      emptyDraft={emptyBox}
      draftOf={draftOf}
      Dialog={BoxDialog}
    />
  );
}
