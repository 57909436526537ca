/**
 * One shipping rule in the editor: its name, on/off, stop-after, its place in the list; its
 * conditions and actions in forms, or its JSON when it has a kind the forms do not show; the
 * field errors the service named for it.
 */
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  List,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { type Locale, useText } from '../../../i18n';
import {
  type ActionField,
  FORM_ACTION_FIELDS,
  FORM_ACTION_TYPES,
  type FieldProblem,
  type FormActionType,
  formsCanEdit,
  newAction,
  type RuleAction,
  type RuleConditions,
  type ShippingRule,
  withBound,
  withCondition,
} from './rules-model';

/** A rule as edited: its JSON text while edited as JSON (null: with the forms). */
export interface EditedRule {
  key: string;
  rule: ShippingRule;
  json: string | null;
}

const DELIVERY_TYPES = [1, 2, 3] as const;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** The weekday's short name in the language (1 January 2024 was a Monday). */
function weekdayName(day: number, locale: Locale): string {
  return new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', { weekday: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, 0, day)),
  );
}

/** What a JSON text holds if it is a rule's shape (the service checks the rest), or why not. */
function parseRule(text: string): { rule: ShippingRule } | { problem: string } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { actions?: unknown }).actions))
      return { problem: 'actions[]' };
    return { rule: parsed as ShippingRule };
  } catch (caught) {
    return { problem: caught instanceof Error ? caught.message : String(caught) };
  }
}

const FIELD_LABEL: Record<ActionField, 'percent' | 'amount' | 'rulesFreeFromCart' | 'rulesAddDaysField'> = {
  percent: 'percent',
  amount: 'amount',
  cartValue: 'rulesFreeFromCart',
  days: 'rulesAddDaysField',
};

function ActionRow({
  action,
  index,
  onChange,
  onRemove,
}: {
  action: RuleAction;
  index: number;
  onChange(action: RuleAction): void;
  onRemove: (() => void) | null;
}) {
  const { t } = useText();
  const type = action.type as FormActionType;
  return (
    <Group align="end" gap="xs" data-testid="rule-action">
      <Select
        label={`${t('rulesAction')} ${index + 1}`}
        value={type}
        onChange={(value) => value && onChange(newAction(value as FormActionType))}
        data={FORM_ACTION_TYPES.map((kind) => ({ value: kind, label: t(`rulesAction_${kind}`) }))}
        allowDeselect={false}
        w={220}
        data-testid="rule-action-type"
      />
      {FORM_ACTION_FIELDS[type].map((field: ActionField) => (
        <NumberInput
          key={field}
          label={t(FIELD_LABEL[field])}
          value={action[field] ?? ''}
          min={0}
          w={150}
          allowDecimal={field !== 'days'}
          onChange={(value) => onChange({ ...action, [field]: value === '' ? null : Number(value) })}
          data-testid={`rule-action-${field}`}
        />
      ))}
      {onRemove && (
        <Button variant="subtle" color="red" onClick={onRemove}>
          {t('remove')}
        </Button>
      )}
    </Group>
  );
}

function ConditionForms({
  conditions,
  companies,
  onChange,
}: {
  conditions: RuleConditions;
  companies: Array<{ id: number; name: string }>;
  onChange(conditions: RuleConditions): void;
}) {
  const { t, locale } = useText();
  const set = <Key extends keyof RuleConditions>(key: Key, value: RuleConditions[Key]) =>
    onChange(withCondition(conditions, key, value));
  const range = (key: 'cartValue' | 'weight', from: 'rulesCartFrom' | 'rulesWeightFrom', decimals: number) =>
    (['min', 'max'] as const).map((bound) => (
      <NumberInput
        key={`${key}-${bound}`}
        label={bound === 'min' ? t(from) : t('rulesTo')}
        value={conditions[key]?.[bound] ?? ''}
        min={0}
        decimalScale={decimals}
        onChange={(value) => set(key, withBound(conditions[key], bound, value))}
        data-testid={`rule-${key}-${bound}`}
      />
    ));
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }}>
      {range('cartValue', 'rulesCartFrom', 2)}
      {range('weight', 'rulesWeightFrom', 3)}
      <MultiSelect
        label={t('rulesDeliveryTypes')}
        value={(conditions.deliveryTypes ?? []).map(String)}
        onChange={(values) => set('deliveryTypes', values.map(Number) as RuleConditions['deliveryTypes'])}
        data={DELIVERY_TYPES.map((type) => ({ value: String(type), label: t(`type${type}`) }))}
        data-testid="rule-delivery-types"
      />
      <MultiSelect
        label={t('rulesCompanies')}
        value={(conditions.companyIds ?? []).map(String)}
        onChange={(values) =>
          set(
            'companyIds',
            values.map((id) => (/^\d+$/.test(id) ? Number(id) : id)),
          )
        }
        data={companies.map((company) => ({ value: String(company.id), label: company.name }))}
        searchable
      />
      <TagsInput
        label={t('rulesRegionCodes')}
        value={conditions.regionCodes ?? []}
        onChange={(values) => set('regionCodes', values)}
      />
      <TagsInput
        label={t('rulesLocalities')}
        value={conditions.localities ?? []}
        onChange={(values) => set('localities', values)}
      />
      <MultiSelect
        label={t('rulesWeekdays')}
        value={(conditions.weekdays ?? []).map(String)}
        onChange={(values) => set('weekdays', values.map(Number))}
        data={WEEKDAYS.map((day) => ({ value: String(day), label: weekdayName(day, locale) }))}
      />
    </SimpleGrid>
  );
}

export function RuleCard({
  edited,
  index,
  count,
  companies,
  problems,
  onChange,
  onMove,
  onRemove,
}: {
  edited: EditedRule;
  index: number;
  count: number;
  companies: Array<{ id: number; name: string }>;
  problems: FieldProblem[];
  onChange(edited: EditedRule): void;
  onMove(step: -1 | 1): void;
  onRemove(): void;
}) {
  const { t } = useText();
  const { rule, json } = edited;
  const setRule = (patch: Partial<ShippingRule>) => onChange({ ...edited, rule: { ...rule, ...patch } });
  const parsed = json === null ? null : parseRule(json);
  const jsonProblem = parsed && 'problem' in parsed ? parsed.problem : null;
  const canUseForms = json === null || (jsonProblem === null && formsCanEdit(rule));
  const setAction = (at: number, action: RuleAction) =>
    setRule({ actions: rule.actions.map((other, place) => (place === at ? action : other)) });
  return (
    <Card withBorder data-testid="shipping-rule" aria-label={rule.name}>
      <Stack gap="xs">
        <Group align="end" gap="xs">
          <Text fw={700} w={28}>
            {index + 1}.
          </Text>
          <TextInput
            label={t('rulesName')}
            value={rule.name}
            onChange={(event) => setRule({ name: event.currentTarget.value })}
            style={{ flex: 1, minWidth: 160 }}
            data-testid="rule-name"
          />
          <Switch
            label={t('rulesEnabled')}
            checked={rule.enabled}
            onChange={(event) => setRule({ enabled: event.currentTarget.checked })}
            mb={8}
          />
          <Checkbox
            label={t('rulesStop')}
            checked={rule.stop}
            onChange={(event) => setRule({ stop: event.currentTarget.checked })}
            mb={8}
          />
          <ActionIcon.Group>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('rulesMoveUp')}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={t('rulesMoveDown')}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            >
              ↓
            </ActionIcon>
          </ActionIcon.Group>
          <Button variant="subtle" color="red" onClick={onRemove} data-testid="remove-rule">
            {t('remove')}
          </Button>
        </Group>

        {json === null ? (
          <>
            <Text size="sm" fw={600}>
              {t('rulesConditions')}
            </Text>
            <ConditionForms
              conditions={rule.conditions ?? {}}
              companies={companies}
              onChange={(conditions) => setRule({ conditions })}
            />
            <Text size="sm" fw={600}>
              {t('rulesActions')}
            </Text>
            {rule.actions.map((action, at) => (
              <ActionRow
                key={at}
                action={action}
                index={at}
                onChange={(changed) => setAction(at, changed)}
                onRemove={
                  rule.actions.length > 1
                    ? () => setRule({ actions: rule.actions.filter((_, place) => place !== at) })
                    : null
                }
              />
            ))}
          </>
        ) : (
          <>
            {!canUseForms && jsonProblem === null && (
              <Text size="sm" c="gray.7">
                {t('rulesJsonOnly')}
              </Text>
            )}
            <Textarea
              label="JSON"
              value={json}
              autosize
              minRows={4}
              maxRows={20}
              styles={{ input: { fontFamily: 'monospace' } }}
              onChange={(event) => {
                const text = event.currentTarget.value;
                const result = parseRule(text);
                onChange({ ...edited, json: text, rule: 'rule' in result ? result.rule : rule });
              }}
              error={jsonProblem ? t('rulesJsonInvalid', { problem: jsonProblem }) : undefined}
              data-testid="rule-json"
            />
          </>
        )}
        <Group gap="xs">
          {json === null ? (
            <>
              <Button
                variant="default"
                size="xs"
                onClick={() => setRule({ actions: [...rule.actions, newAction('markup')] })}
                data-testid="add-action"
              >
                {t('rulesAddAction')}
              </Button>
              <Button
                variant="subtle"
                size="xs"
                onClick={() => onChange({ ...edited, json: JSON.stringify(rule, null, 2) })}
              >
                {t('rulesEditJson')}
              </Button>
            </>
          ) : (
            <Button
              variant="subtle"
              size="xs"
              disabled={!canUseForms}
              onClick={() => onChange({ ...edited, json: null })}
            >
              {t('rulesEditForms')}
            </Button>
          )}
        </Group>
        {problems.length > 0 && (
          <Alert color="red" role="alert" data-testid="rule-problems">
            <List size="sm">
              {problems.map((problem, at) => (
                <List.Item key={at}>
                  <Code>{problem.field}</Code> {problem.message}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
