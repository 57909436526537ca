/**
 * The street and house of an address in a chosen city, suggested from the federal address
 * register (GET /v2/addresses/suggest) as they are typed: the street field suggests the city's
 * streets, the house field that street's houses; a house picked gives its FIAS id (the order's
 * `deliveryAddress.fiasId`, so the service takes the register's house as it is). Typing over
 * either field forgets the house picked. The order form and the warehouse forms use it; the
 * fields themselves are components/AddressSuggestField, which knows no API.
 */
import { useCallback } from 'react';
import type { operations } from '../../../../clients/typescript/src/index';
import { api } from '../../api';
import { AddressSuggestField } from '../../components/AddressSuggestField';
import { useText } from '../../i18n';

export type AddressSuggestion =
  operations['suggestAddresses']['responses'][200]['content']['application/json']['suggestions'][number];

/** A FIAS id (a UUID); a locality of ours without one (`gn:…`) restricts nothing. */
const FIAS = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the fields hold: typed, or the house picked with its register id. */
export interface StreetAndHouseValue {
  street: string;
  house: string;
  /** The house picked from the suggestions; null once either field is typed over. */
  fiasId: string | null;
}

/** The house's number with its block as a person reads it: "5 к 2", "12/2 стр 1". */
export function houseText(data: AddressSuggestion['data']): string {
  return [data.house, data.blockType && data.block ? `${data.blockType} ${data.block}` : data.block]
    .filter(Boolean)
    .join(' ');
}

export function StreetAndHouse({
  city,
  value,
  onChange,
  errors = {},
  testIdPrefix = 'address',
  streetRequired = false,
}: {
  /** The chosen city: its FIAS id restricts the suggestions; a name alone is put before what is typed. */
  city: { name: string; fias?: string | null } | null;
  value: StreetAndHouseValue;
  onChange(value: StreetAndHouseValue): void;
  errors?: { street?: string; house?: string };
  testIdPrefix?: string;
  streetRequired?: boolean;
}) {
  const { t } = useText();
  const fias = city?.fias && FIAS.test(city.fias) ? city.fias : undefined;
  const cityName = fias ? '' : (city?.name ?? '');
  const ask = useCallback(
    async (query: string, level: 'street' | 'house') => {
      const answer = await api.GET('/v2/addresses/suggest', {
        params: {
          query: {
            query: cityName ? `${cityName} ${query}` : query,
            ...(fias ? { locality: fias } : {}),
            fromLevel: level,
            toLevel: level,
            count: 7,
          },
        },
      });
      return answer.data?.suggestions ?? [];
    },
    [fias, cityName],
  );
  const suggestStreets = useCallback((typed: string) => ask(typed, 'street'), [ask]);
  const suggestHouses = useCallback(
    async (typed: string) => {
      // the number marked as a house: a bare "1" would be read as a part of a street's name ("1-я …")
      const house = /^\d/.test(typed.trim()) ? `д ${typed.trim()}` : typed.trim();
      // only houses: a street that the text also matches is no house to pick here
      return (await ask(`${value.street.trim()}, ${house}`, 'house')).filter((suggestion) => suggestion.data.house);
    },
    [ask, value.street],
  );
  return (
    <>
      <AddressSuggestField<AddressSuggestion>
        label={t('street')}
        placeholder={t('streetPlaceholder')}
        required={streetRequired}
        value={value.street}
        onChange={(street) => onChange({ ...value, street, fiasId: null })}
        onPick={(picked) => onChange({ street: picked.data.streetWithType ?? picked.value, house: '', fiasId: null })}
        suggest={suggestStreets}
        labelOf={(suggestion) => suggestion.data.streetWithType ?? suggestion.value}
        error={errors.street}
        testId={`${testIdPrefix}-street`}
      />
      <AddressSuggestField<AddressSuggestion>
        label={t('house')}
        placeholder={t('housePlaceholder')}
        value={value.house}
        onChange={(house) => onChange({ ...value, house, fiasId: null })}
        onPick={(picked) =>
          onChange({
            street: picked.data.streetWithType ?? value.street,
            house: houseText(picked.data),
            fiasId: picked.data.houseFiasId,
          })
        }
        suggest={suggestHouses}
        minLength={1}
        labelOf={(suggestion) => houseText(suggestion.data) || suggestion.value}
        error={errors.house}
        testId={`${testIdPrefix}-house`}
      />
    </>
  );
}
