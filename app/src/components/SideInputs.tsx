/** A parcel's three sides in centimetres (a box's, a product's): whole numbers from 1 to 999, as the contract's dimensions. */
import { NumberInput, SimpleGrid } from '@mantine/core';
import { useText } from '../i18n';

export type Side = 'width' | 'height' | 'length';
type Sides = Record<Side, number | string>;

export function SideInputs({
  sides,
  onChange,
  fieldErrors,
  required = false,
}: {
  /** The form's draft (null while it loads: the fields stay empty). */
  sides: Readonly<Sides> | null;
  onChange(change: Partial<Sides>): void;
  /** The refusal's field errors, read at `dimensions.<side>`. */
  fieldErrors: Record<string, string>;
  required?: boolean;
}) {
  const { t } = useText();
  const side = (key: Side) => (
    <NumberInput
      label={t(key)}
      required={required}
      value={sides?.[key] ?? ''}
      onChange={(value) => onChange({ [key]: value })}
      min={1}
      max={999}
      allowDecimal={false}
      error={fieldErrors[`dimensions.${key}`]}
    />
  );
  return (
    <SimpleGrid cols={3}>
      {side('width')}
      {side('height')}
      {side('length')}
    </SimpleGrid>
  );
}
