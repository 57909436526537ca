/**
 * The rules tried on a test cart (POST /v2/shops/{id}/shipping-rules/explain with the rules as
 * edited, not yet saved): every offer, hidden ones too, with the rules that matched it and each
 * step of its price. Asked again half a second after the last change of the rules or the cart.
 */
import { Badge, Card, NumberInput, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { api, ok } from '../../../api';
import { formatMoney } from '../../../format';
import { useText } from '../../../i18n';
import type { ExplainedOffer, ShippingRule } from './rules-model';

interface TestCart {
  value: number;
  weight: number;
  city: string;
}

export function ExplainPanel({
  shopId,
  rules,
  onRefused,
}: {
  shopId: number;
  rules: ShippingRule[];
  /** The explain's refusal (its field errors name the rules), null when it answered. */
  onRefused(error: unknown): void;
}) {
  const { t, locale } = useText();
  const [cart, setCart] = useState<TestCart>({ value: 1000, weight: 1, city: 'Санкт-Петербург' });
  const [asked] = useDebouncedValue(JSON.stringify({ rules, cart }), 500);
  const [offers, setOffers] = useState<ExplainedOffer[] | null>(null);
  useEffect(() => {
    let live = true;
    const { rules: tried, cart: tested } = JSON.parse(asked) as { rules: ShippingRule[]; cart: TestCart };
    api
      .POST('/v2/shops/{id}/shipping-rules/explain', {
        params: { path: { id: shopId } },
        body: {
          reception: { countryCode: 'RU', cityName: tested.city },
          products: [
            {
              count: 1,
              priceDeclared: tested.value,
              priceCod: 0,
              weight: tested.weight,
              dimensions: { width: 20, height: 10, length: 30 },
            },
          ],
          priceDeclared: tested.value,
          rules: tried,
        },
      })
      .then(
        (result) => {
          if (!live) return;
          try {
            setOffers(ok(result).offers);
            onRefused(null);
          } catch (caught) {
            onRefused(caught);
          }
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
    // onRefused is the page's setter
  }, [asked, shopId]);
  const money = (value: number) => formatMoney(value, locale);
  return (
    <Card withBorder data-testid="explain-panel">
      <Title order={3} size="h5" mb={4}>
        {t('rulesExplain')}
      </Title>
      <Text size="sm" c="gray.7" mb="xs">
        {t('rulesExplainHint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }} mb="sm">
        <NumberInput
          label={t('rulesCartValue')}
          value={cart.value}
          min={0}
          onChange={(value) => setCart({ ...cart, value: Number(value) || 0 })}
          data-testid="explain-value"
        />
        <NumberInput
          label={t('rulesCartWeight')}
          value={cart.weight}
          min={0.001}
          step={0.1}
          decimalScale={3}
          onChange={(value) => setCart({ ...cart, weight: Number(value) || 0.001 })}
          data-testid="explain-weight"
        />
        <TextInput
          label={t('rulesCity')}
          value={cart.city}
          onChange={(event) => setCart({ ...cart, city: event.currentTarget.value })}
          data-testid="explain-city"
        />
      </SimpleGrid>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('rulesOffer')}</Table.Th>
              <Table.Th>{t('rulesBasePrice')}</Table.Th>
              <Table.Th>{t('rulesPriceSteps')}</Table.Th>
              <Table.Th>{t('rulesFinalPrice')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(offers ?? []).map((offer, at) => (
              <Table.Tr
                key={at}
                data-testid="explain-offer"
                data-company={String(offer.companyId)}
                data-delivery-type={offer.deliveryType}
                data-price={offer.price}
                data-hidden={offer.hidden}
              >
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm">{offer.companyName}</Text>
                    <Text size="xs" c="gray.7">
                      {t(`type${offer.deliveryType as 1 | 2 | 3}`)}
                      {offer.tariffName ? ` · ${offer.tariffName}` : ''}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>{money(offer.basePrice)}</Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    {offer.steps.map((step, place) => (
                      <Text key={place} size="xs" data-testid="explain-step">
                        {step.ruleName} ({step.action}): {money(step.before)} → {money(step.after)}
                      </Text>
                    ))}
                    {offer.matched.length > offer.steps.length && (
                      <Text size="xs" c="gray.7">
                        {t('rulesMatched')}: {offer.matched.map((rule) => rule.ruleName).join(', ')}
                      </Text>
                    )}
                  </Stack>
                </Table.Td>
                <Table.Td>
                  {offer.hidden ? (
                    <Badge color="gray" variant="light" title={offer.hiddenBy ?? undefined}>
                      {t('rulesHiddenBy', { rule: offer.hiddenBy ?? '' })}
                    </Badge>
                  ) : (
                    <Text size="sm" fw={700}>
                      {money(offer.price)}
                    </Text>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {offers !== null && offers.length === 0 && (
        <Text size="sm" c="gray.7">
          {t('rulesNoOffers')}
        </Text>
      )}
    </Card>
  );
}
