/**
 * The first-run checklist: the landing page while a step is left (sections.tsx), reachable
 * from the navigation later. Each step's tick is the service's (GET /v2/account/checklist,
 * computed from the data); each step opens its form, and a form saved asks the ticks again.
 */
import { Accordion, Alert, Badge, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api, type Schemas } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useList } from '../../hooks/use-list';
import { type TextKey, useText } from '../../i18n';
import { CmsStep } from './CmsStep';
import { DeliveryStep } from './DeliveryStep';
import { ShopStep } from './ShopStep';
import { TestOrderStep } from './TestOrderStep';
import { WarehouseStep } from './WarehouseStep';
import { WidgetStep } from './WidgetStep';

type Steps = Schemas['Checklist']['steps'];
type StepKey = keyof Steps;

const ORDER: Array<{ key: StepKey; title: TextKey; hint: TextKey }> = [
  { key: 'warehouse', title: 'clStepWarehouse', hint: 'clStepWarehouseHint' },
  { key: 'shop', title: 'clStepShop', hint: 'clStepShopHint' },
  { key: 'deliveryCompanies', title: 'clStepDelivery', hint: 'clStepDeliveryHint' },
  { key: 'widget', title: 'clStepWidget', hint: 'clStepWidgetHint' },
  { key: 'testOrder', title: 'clStepTestOrder', hint: 'clStepTestOrderHint' },
  { key: 'cmsPlugin', title: 'clStepCms', hint: 'clStepCmsHint' },
];

export function ChecklistPage() {
  const { t } = useText();
  const checklist = useList(() => api.GET('/v2/account/checklist'), 'checklist');
  const [opened, setOpened] = useState<string | null>(null);
  const steps = checklist.data?.steps;
  if (!steps)
    return (
      <Stack>
        <Title order={2}>{t('checklist')}</Title>
        <ApiError error={checklist.error} />
        {!checklist.error && <Loader aria-label={t('loading')} />}
      </Stack>
    );
  const doneCount = ORDER.filter((step) => steps[step.key].done).length;
  const firstUndone = ORDER.find((step) => !steps[step.key].done)?.key ?? null;
  const open = opened === null ? firstUndone : opened;
  const refresh = () => checklist.reload();
  const form = (key: StepKey) => {
    switch (key) {
      case 'warehouse':
        return <WarehouseStep done={refresh} />;
      case 'shop':
        return <ShopStep done={refresh} />;
      case 'deliveryCompanies':
        return <DeliveryStep done={refresh} />;
      case 'widget':
        return <WidgetStep done={refresh} />;
      case 'testOrder':
        return <TestOrderStep orderId={steps.testOrder.orderId} status={steps.testOrder.status} done={refresh} />;
      case 'cmsPlugin':
        return <CmsStep />;
    }
  };
  return (
    <Stack data-testid="checklist-page">
      <Title order={2}>{t('checklist')}</Title>
      <Text size="sm">{t('clIntro')}</Text>
      <Group gap="sm" align="center">
        <Progress
          value={(doneCount / ORDER.length) * 100}
          w={220}
          aria-label={t('clProgress', { done: doneCount, total: ORDER.length })}
        />
        <Text size="sm" data-testid="checklist-progress">
          {t('clProgress', { done: doneCount, total: ORDER.length })}
        </Text>
      </Group>
      {checklist.data?.complete && (
        <Alert color="teal.9" variant="outline" data-testid="checklist-complete">
          <Text size="sm" c="dark.9">
            {t('clAllDone')}
          </Text>
        </Alert>
      )}
      <Accordion value={open} onChange={setOpened} variant="separated" chevronPosition="left">
        {ORDER.map((step, index) => {
          const done = steps[step.key].done;
          return (
            <Accordion.Item key={step.key} value={step.key} data-testid={`step-${step.key}`} data-done={String(done)}>
              <Accordion.Control>
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Stack gap={0}>
                    <Text fw={600}>
                      {index + 1}. {t(step.title)}
                    </Text>
                    <Text size="sm" c="gray.7" visibleFrom="sm">
                      {t(step.hint)}
                    </Text>
                  </Stack>
                  <Badge
                    color={done ? 'teal.9' : 'gray.7'}
                    variant={done ? 'filled' : 'outline'}
                    style={{ flexShrink: 0, overflow: 'visible' }}
                  >
                    {done ? `✓ ${t('clDone')}` : t('clToDo')}
                  </Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Text size="sm" mb="sm" hiddenFrom="sm">
                  {t(step.hint)}
                </Text>
                {open === step.key && form(step.key)}
              </Accordion.Panel>
            </Accordion.Item>
          );
        })}
      </Accordion>
      <ApiError error={checklist.error} />
    </Stack>
  );
}
