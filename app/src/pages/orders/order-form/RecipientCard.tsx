/**
 * The order form's recipient: name, phone, e-mail, and the address with the city searched in the
 * localities (GET /v2/lists/localities), its street and house suggested from the address register
 * (pages/addresses/StreetAndHouse); choosing a city forgets the delivery chosen for another.
 */
import { Autocomplete, Card, SimpleGrid, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import type { operations } from '../../../../../clients/typescript/src/index';
import { api } from '../../../api';
import { useText } from '../../../i18n';
import { StreetAndHouse } from '../../addresses/StreetAndHouse';
import type { FormPartProps } from './form-part';

type Locality = operations['searchLocalities']['responses'][200]['content']['application/json'][number];

export function RecipientCard({
  draft,
  update,
  err,
  cityText,
  setCityText,
}: FormPartProps & {
  /** The city field's text: the page sets it too, when it loads the order being edited. */
  cityText: string;
  setCityText(text: string): void;
}) {
  const { t } = useText();
  const [cities, setCities] = useState<Locality[]>([]);
  const [debouncedCity] = useDebouncedValue(cityText, 250);

  useEffect(() => {
    const typed = debouncedCity.trim();
    if (typed.length < 2 || typed === draft.city?.name) return;
    let live = true;
    api.GET('/v2/lists/localities', { params: { query: { q: typed, limit: 10 } } }).then(
      (result) => live && result.data && setCities(result.data),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [debouncedCity, draft.city?.name]);

  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('recipient')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('recipientName')}
          required
          value={draft.fullName}
          onChange={(event) => update({ fullName: event.currentTarget.value })}
          error={err('recipient.fullName')}
          data-testid="recipient-name"
        />
        <TextInput
          label={t('phone')}
          required
          type="tel"
          value={draft.phone}
          onChange={(event) => update({ phone: event.currentTarget.value })}
          error={err('recipient.phone')}
          data-testid="recipient-phone"
        />
        <TextInput
          label={t('email')}
          type="email"
          value={draft.email}
          onChange={(event) => update({ email: event.currentTarget.value })}
          error={err('recipient.email')}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 4 }} mt="xs">
        <Autocomplete
          label={t('citySearch')}
          required
          value={cityText}
          onChange={(value) => {
            setCityText(value);
            const found = cities.find((city) => cityLabel(city) === value);
            if (found) {
              setCityText(found.name);
              update({
                city: {
                  name: found.name,
                  fias: found.fias,
                  type: found.type,
                  region: found.region,
                  countryCode: found.countryCode,
                },
                option: null,
                pointId: null,
                // a house of the city before is no house of this one
                addressFiasId: null,
              });
            }
          }}
          data={[...new Set(cities.map(cityLabel))]}
          filter={({ options }) => options}
          error={err('deliveryAddress.city', 'deliveryAddress.city.name', 'deliveryAddress')}
          data-testid="city"
        />
        <StreetAndHouse
          city={draft.city}
          value={{ street: draft.street, house: draft.house, fiasId: draft.addressFiasId ?? null }}
          onChange={(address) =>
            update({ street: address.street, house: address.house, addressFiasId: address.fiasId })
          }
          errors={{ street: err('deliveryAddress.street'), house: err('deliveryAddress.house') }}
          testIdPrefix="recipient"
        />
        <TextInput
          label={t('flat')}
          value={draft.flat}
          onChange={(event) => update({ flat: event.currentTarget.value })}
          error={err('deliveryAddress.flat')}
        />
      </SimpleGrid>
    </Card>
  );
}

function cityLabel(city: Locality): string {
  return `${city.name}, ${city.region}`;
}
