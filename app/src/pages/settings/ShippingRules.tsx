/**
 * A shop's shipping rules (GET and PUT /v2/shops/{id}/shipping-rules): the ordered list edited
 * in place (shipping-rules/RuleCard.tsx), saved as a new version with the service's field errors
 * shown beside the rule they name; the versions with a revert; and the rules as edited tried on
 * a test cart (shipping-rules/ExplainPanel.tsx). The shop comes from ?shop= (the shops page
 * links here) or is the first one.
 */
import { Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { api, ok } from '../../api';
import { ApiError } from '../../components/ApiError';
import { useList } from '../../hooks/use-list';
import { useText } from '../../i18n';
import { useReference } from '../../reference';
import { ShopSettingsPage } from './ShopSettingsPage';
import { ExplainPanel } from './shipping-rules/ExplainPanel';
import { type EditedRule, RuleCard } from './shipping-rules/RuleCard';
import { RuleVersions } from './shipping-rules/RuleVersions';
import { formsCanEdit, moved, newRule, problemsByRule, type ShippingRule } from './shipping-rules/rules-model';

function useRuleKeys(): (rule: ShippingRule) => EditedRule {
  const next = useRef(0);
  return (rule) => {
    next.current += 1;
    return { key: `rule-${next.current}`, rule, json: formsCanEdit(rule) ? null : JSON.stringify(rule, null, 2) };
  };
}

function RulesEditor({ shopId }: { shopId: number }) {
  const { t, locale } = useText();
  const reference = useReference(locale);
  const edit = useRuleKeys();
  const [edited, setEdited] = useState<EditedRule[] | null>(null);
  const [comment, setComment] = useState('');
  const [loadError, setLoadError] = useState<unknown>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [explainError, setExplainError] = useState<unknown>(null);
  const [changed, setChanged] = useState(false);
  const [saved, setSaved] = useState(false);
  const [generation, setGeneration] = useState(0);
  const versions = useList(
    () => api.GET('/v2/shops/{id}/shipping-rules/versions', { params: { path: { id: shopId } } }),
    `rule-versions-${shopId}-${generation}`,
  );
  const employees = useList(() => api.GET('/v2/employees'), 'rule-employees');
  const employeeNames = useMemo(
    () => new Map((employees.data ?? []).map((employee) => [employee.id, employee.name ?? employee.email])),
    [employees.data],
  );
  const showSet = (rules: ShippingRule[]) => {
    setEdited(rules.map(edit));
    setChanged(false);
    setSaveError(null);
  };
  useEffect(() => {
    api.GET('/v2/shops/{id}/shipping-rules', { params: { path: { id: shopId } } }).then(
      (result) => {
        try {
          showSet(ok(result).rules);
        } catch (caught) {
          setLoadError(caught);
        }
      },
      () => undefined,
    );
  }, [shopId]);
  const rules = useMemo(() => (edited ?? []).map((item) => item.rule), [edited]);
  if (!edited) return <ApiError error={loadError} />;

  const change = (next: EditedRule[]) => {
    setEdited(next);
    setChanged(true);
    setSaved(false);
  };
  const save = async () => {
    setSaveError(null);
    try {
      const answer = ok(
        await api.PUT('/v2/shops/{id}/shipping-rules', {
          params: { path: { id: shopId } },
          body: { rules, ...(comment.trim() ? { comment: comment.trim() } : {}) },
        }),
      );
      showSet(answer.rules);
      setComment('');
      setSaved(true);
      setGeneration((value) => value + 1);
    } catch (caught) {
      setSaveError(caught);
    }
  };
  const revert = async (version: number) => {
    setSaveError(null);
    try {
      const answer = ok(
        await api.POST('/v2/shops/{id}/shipping-rules/revert', { params: { path: { id: shopId } }, body: { version } }),
      );
      showSet(answer.rules);
      setSaved(false);
      setGeneration((value) => value + 1);
    } catch (caught) {
      setSaveError(caught);
    }
  };
  // the save's refusal names fields of the rules as saved; the explain's, of the rules as edited now
  const problems = problemsByRule(saveError ?? explainError);
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} data-testid="shipping-rules-editor">
      <Stack>
        {edited.length === 0 && (
          <Text size="sm" c="gray.7">
            {t('rulesNone')}
          </Text>
        )}
        {edited.map((item, index) => (
          <RuleCard
            key={item.key}
            edited={item}
            index={index}
            count={edited.length}
            companies={reference?.companies ?? []}
            problems={problems.byRule.get(index) ?? []}
            onChange={(next) => change(edited.map((other, at) => (at === index ? next : other)))}
            onMove={(step) => change(moved(edited, index, index + step))}
            onRemove={() => change(edited.filter((_, at) => at !== index))}
          />
        ))}
        <Group>
          <Button
            variant="default"
            onClick={() => change([...edited, edit(newRule(t('rulesNewName', { n: edited.length + 1 })))])}
            data-testid="add-shipping-rule"
          >
            {t('addRule')}
          </Button>
        </Group>
        <Group align="end">
          <TextInput
            label={t('rulesComment')}
            value={comment}
            onChange={(event) => setComment(event.currentTarget.value)}
            maxLength={500}
            style={{ flex: 1 }}
            data-testid="rules-comment"
          />
          <Button onClick={() => void save()} disabled={!changed} data-testid="save-shipping-rules">
            {t('rulesSave')}
          </Button>
        </Group>
        {changed && (
          <Text size="sm" fw={600} role="status" data-testid="shipping-rules-unsaved">
            {t('rulesUnsaved')}
          </Text>
        )}
        {saved && (
          <Text size="sm" c="teal.9" role="status" data-testid="shipping-rules-saved">
            {t('saved')}
          </Text>
        )}
        <ApiError error={saveError} />
        <RuleVersions
          versions={versions.data?.items ?? []}
          employees={employeeNames}
          onRevert={(version) => void revert(version)}
        />
        <ApiError error={versions.error} />
      </Stack>
      <Stack>
        <ExplainPanel shopId={shopId} rules={rules} onRefused={setExplainError} />
        {explainError !== null && !saveError && problems.byRule.size === 0 && <ApiError error={explainError} />}
      </Stack>
    </SimpleGrid>
  );
}

export function ShippingRulesPage() {
  return (
    <ShopSettingsPage
      title="shippingRules"
      hint="rulesHint"
      selectTestId="rules-shop"
      editor={(shopId) => <RulesEditor shopId={shopId} />}
    />
  );
}
