/**
 * Waybills and acts for the selected orders, with the places check: the dialog asks
 * POST /v2/orders/waybills/check-places-required first and shows the count of bags (carrier A)
 * or boxes/pallets (carrier B) only when those companies' orders are among them, then
 * POST /v2/orders/waybills. The sets formed are links; the orders left out come back to the page
 * (onRefused) so their reasons stand next to them in the table.
 */
import { Alert, Anchor, Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ok, type Schemas } from '../../api';
import { todayIn } from '../../format';
import { useText } from '../../i18n';
import { fileHref } from '../../reference';
import { useSignedIn } from '../../session';
import { ApiError } from '../../components/ApiError';
import { DateField } from '../../components/DateField';

type Result = Schemas['WaybillsResult'];

export function WaybillsDialog({
  ids,
  opened,
  onClose,
  onFormed,
}: {
  ids: number[];
  opened: boolean;
  onClose(): void;
  /** The service answered: the orders it left out with their reasons. */
  onFormed(refused: Map<number, string>): void;
}) {
  const { t } = useText();
  const session = useSignedIn();
  const [date, setDate] = useState<string | null>(todayIn(session.timeZone));
  const [required, setRequired] = useState<Schemas['PlacesRequired'] | null>(null);
  const [carrierAPlaces, setCarrierAPlaces] = useState<number | ''>('');
  const [carrierBPlaces, setCarrierBPlaces] = useState<number | ''>('');
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const key = ids.join(',');

  useEffect(() => {
    if (!opened || ids.length === 0) return;
    let live = true;
    setRequired(null);
    setResult(null);
    setError(null);
    api.POST('/v2/orders/waybills/check-places-required', { body: { ids } }).then(
      (answer) => {
        if (!live) return;
        try {
          setRequired(ok(answer));
        } catch (caught) {
          setError(caught);
        }
      },
      (caught: unknown) => live && setError(caught),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, key]);

  const form = async () => {
    if (!date) return;
    setBusy(true);
    setError(null);
    try {
      const answer = ok(
        await api.POST('/v2/orders/waybills', {
          body: {
            date,
            ids,
            ...(required?.carrierARequired && carrierAPlaces !== '' ? { carrierAPlaces } : {}),
            ...(required?.carrierBRequired && carrierBPlaces !== '' ? { carrierBPlaces } : {}),
          },
        }),
      );
      setResult(answer);
      onFormed(new Map(answer.error.map((refusal) => [refusal.orderId, refusal.message])));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const placesMissing =
    (required?.carrierARequired === true && carrierAPlaces === '') ||
    (required?.carrierBRequired === true && carrierBPlaces === '');

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('waybills')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <Stack gap="sm" data-testid="waybills-dialog">
        <DateField
          label={t('handoverDate')}
          value={date}
          onChange={(value) => setDate(value ? String(value).slice(0, 10) : null)}
          data-testid="waybill-date"
        />
        {required === null && error === null && (
          <Text size="sm" c="gray.7">
            {t('placesChecking')}
          </Text>
        )}
        {required && !required.carrierARequired && !required.carrierBRequired && (
          <Text size="sm" c="gray.7" data-testid="no-places-needed">
            {t('noPlacesNeeded')}
          </Text>
        )}
        {required?.carrierARequired && (
          <NumberInput
            label={t('carrierAPlaces')}
            required
            min={1}
            max={9999}
            value={carrierAPlaces}
            onChange={(value) => setCarrierAPlaces(typeof value === 'number' ? value : '')}
            data-testid="carrier-a-places"
          />
        )}
        {required?.carrierBRequired && (
          <NumberInput
            label={t('carrierBPlaces')}
            required
            min={1}
            max={9999}
            value={carrierBPlaces}
            onChange={(value) => setCarrierBPlaces(typeof value === 'number' ? value : '')}
            data-testid="carrier-b-places"
          />
        )}
        <ApiError error={error} />
        {result && (
          <Alert color={result.error.length > 0 ? 'orange' : 'teal'} data-testid="waybills-result">
            <Stack gap={4}>
              <Text size="sm">{t('waybillsFormed', { count: result.success.length })}</Text>
              {result.success.map((set) => (
                <Group key={set.id} gap="xs">
                  <Anchor href={fileHref(set.file)} target="_blank" size="sm" data-testid="waybill-act">
                    {t('act')} #{set.id}
                  </Anchor>
                  {set.crossDockFile && (
                    <Anchor href={fileHref(set.crossDockFile)} target="_blank" size="sm">
                      {t('waybill')} #{set.id}
                    </Anchor>
                  )}
                </Group>
              ))}
              {result.error.length > 0 && <Text size="sm">{t('notInAct', { count: result.error.length })}</Text>}
            </Stack>
          </Alert>
        )}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            {t('close')}
          </Button>
          <Button
            onClick={() => void form()}
            loading={busy}
            disabled={!date || required === null || placesMissing || result !== null}
            data-testid="form-waybills"
          >
            {t('form')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
