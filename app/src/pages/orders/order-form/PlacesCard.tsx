/** The order form's places: how many, and each one's sizes and weight when measured. */
import { Card, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useText } from '../../../i18n';
import { resizePlaces, type PlaceSize } from '../order-draft';
import { numberOrNull, type FormPartProps } from './form-part';

export function PlacesCard({ draft, update, err }: FormPartProps) {
  const { t } = useText();
  const setPlace = (index: number, patch: Partial<PlaceSize>) =>
    update({
      placeSizes: resizePlaces(draft.placeSizes, draft.places).map((place, at) =>
        at === index ? { ...place, ...patch } : place,
      ),
    });

  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('placesTitle')}
      </Title>
      <NumberInput
        label={t('placeCount')}
        min={1}
        max={99}
        w={160}
        value={draft.places}
        onChange={(value) => {
          const places = Math.min(99, Math.max(1, Number(value) || 1));
          update({ places, placeSizes: resizePlaces(draft.placeSizes, places) });
        }}
        data-testid="place-count"
      />
      <Stack gap={4} mt="xs" data-testid="places">
        {resizePlaces(draft.placeSizes, draft.places).map((place, index) => (
          <SimpleGrid key={index} cols={{ base: 2, sm: 5 }} spacing="xs" data-place={index + 1}>
            <Text size="sm" mt={30}>
              {t('place')} {index + 1}
            </Text>
            {(['length', 'width', 'height'] as const).map((side) => (
              <NumberInput
                key={side}
                label={`${t('place')} ${index + 1}: ${t(side)}`}
                min={1}
                max={999}
                value={place[side] ?? ''}
                onChange={(value) => setPlace(index, { [side]: numberOrNull(value) })}
                error={err(`places[${index}].dimensions.${side}`, `places[${index}].dimensions`)}
              />
            ))}
            <NumberInput
              label={`${t('place')} ${index + 1}: ${t('weight')}`}
              min={0.001}
              step={0.1}
              decimalScale={3}
              value={place.weight ?? ''}
              onChange={(value) => setPlace(index, { weight: numberOrNull(value) })}
              error={err(`places[${index}].weight`)}
            />
          </SimpleGrid>
        ))}
      </Stack>
    </Card>
  );
}
