/**
 * Longer storage at the pickup point: how many days is asked here, with its label in sight,
 * when the action is chosen (the list's batch menu and an order's page share it).
 */
import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useText } from '../../i18n';

/** What POST /v2/orders/extend-hold takes. */
const MIN_DAYS = 1;
const MAX_DAYS = 30;
const DEFAULT_DAYS = 3;

export function ExtendHoldDialog({
  opened,
  orderCount,
  onClose,
  onExtend,
}: {
  opened: boolean;
  /** How many orders the extension is asked for (the chosen ones, or the one of the page). */
  orderCount: number;
  onClose(): void;
  onExtend(days: number): void;
}) {
  const { t } = useText();
  const [days, setDays] = useState<number | ''>(DEFAULT_DAYS);
  const valid = typeof days === 'number' && Number.isInteger(days) && days >= MIN_DAYS && days <= MAX_DAYS;
  return (
    <Modal opened={opened} onClose={onClose} title={t('extendHold')} closeButtonProps={{ 'aria-label': t('close') }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) onExtend(days);
        }}
      >
        <Stack gap="sm" data-testid="extend-hold-dialog">
          <Text size="sm">{t('extendHoldWho', { count: orderCount })}</Text>
          <NumberInput
            label={t('extendHoldDays')}
            description={t('extendHoldRange', { min: MIN_DAYS, max: MAX_DAYS })}
            min={MIN_DAYS}
            max={MAX_DAYS}
            allowDecimal={false}
            value={days}
            onChange={(value) => setDays(typeof value === 'number' ? value : '')}
            error={days !== '' && !valid ? t('extendHoldRange', { min: MIN_DAYS, max: MAX_DAYS }) : undefined}
            data-autofocus
            data-testid="extend-hold-days"
          />
          <Group justify="end">
            <Button variant="default" onClick={onClose}>
              {t('dismiss')}
            </Button>
            <Button type="submit" disabled={!valid} data-testid="extend-hold-confirm">
              {t('extendHoldApply')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
