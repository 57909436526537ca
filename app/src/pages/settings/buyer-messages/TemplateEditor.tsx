/**
 * A shop's message templates (GET and PUT /v2/shops/{id}/buyer-messages/templates): a moment and a
 * language chosen, their three parts edited (each marked the shop's own or the default), the
 * variables and filters Liquid may use, the save with the service's refusal shown beside the part
 * it names (until that part is edited), and the parts as typed previewed beside them (TemplatePreview.tsx).
 */
import { Button, Card, Code, Group, Select, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api, ok } from '../../../api';
import { fieldErrorsOf } from '../../../batch';
import { ApiError } from '../../../components/ApiError';
import { dictionaries, type TextKey, useText } from '../../../i18n';
import {
  type Language,
  LANGUAGES,
  type Moment,
  MOMENTS,
  type OwnTemplates,
  ownOf,
  ownPart,
  type Part,
  savedAsOwn,
  shownPart,
  templateField,
  type TemplatesView,
  templatesBody,
  withPart,
} from './messages-model';
import { TemplatePreview } from './TemplatePreview';

const PART_LABELS: Record<Part, TextKey> = {
  subject: 'bmSubject',
  text: 'bmText',
  sms: 'bmSms',
  telegram: 'bmTelegramText',
};

export function TemplateEditor({ shopId, shopLanguage }: { shopId: number; shopLanguage: Language }) {
  const { t, locale } = useText();
  const [view, setView] = useState<TemplatesView | null>(null);
  const [own, setOwn] = useState<OwnTemplates>({});
  const [moment, setMoment] = useState<Moment>('registered');
  const [language, setLanguage] = useState<Language>(shopLanguage);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  // the parts edited since the refusal: its word on them is about a text no longer there
  const [editedSince, setEditedSince] = useState<ReadonlySet<string>>(new Set());
  const [changed, setChanged] = useState(false);
  const [saved, setSaved] = useState(false);
  const show = (answer: TemplatesView) => {
    setView(answer);
    setOwn(ownOf(answer));
    setChanged(false);
  };
  useEffect(() => {
    api.GET('/v2/shops/{id}/buyer-messages/templates', { params: { path: { id: shopId } } }).then(
      (result) => {
        try {
          show(ok(result));
        } catch (caught) {
          setLoadError(caught);
        }
      },
      () => undefined,
    );
  }, [shopId]);
  if (!view) return <ApiError error={loadError} />;

  const save = async (templates: OwnTemplates) => {
    setSaveError(null);
    setEditedSince(new Set());
    setSaved(false);
    try {
      show(
        ok(
          await api.PUT('/v2/shops/{id}/buyer-messages/templates', {
            params: { path: { id: shopId } },
            body: templatesBody(templates),
          }),
        ),
      );
      setSaved(true);
    } catch (caught) {
      // what was typed stays, to be fixed where the refusal says
      setOwn(templates);
      setSaveError(caught);
    }
  };
  const edit = (part: Part, text: string | null) => {
    setOwn(withPart(own, moment, language, part, text));
    setEditedSince(new Set(editedSince).add(templateField(moment, language, part)));
    setChanged(true);
    setSaved(false);
  };
  // a saved part's default is known only to the service: giving one back saves, and the answer shows it
  const backToDefault = (part: Part) =>
    savedAsOwn(view, moment, language, part)
      ? void save(withPart(own, moment, language, part, null))
      : edit(part, null);
  const fieldErrors = fieldErrorsOf(saveError);
  // every part the refusal named has been edited since: what it said is about texts no longer there
  const refused = Object.keys(fieldErrors);
  const refusalFixed = refused.length > 0 && refused.every((field) => editedSince.has(field));
  const text = (part: Part) => shownPart(view, own, moment, language, part);
  // the service describes its variables in English: the dashboard's words where it has them
  const variableAbout = (name: string, about: string) => {
    const key = `bmVar_${name.replaceAll('.', '_')}`;
    return key in dictionaries[locale] ? t(key as TextKey) : about;
  };

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} data-testid="bm-templates">
      {/* in a stack, as the preview's column: a card as tall as its fields, not as the row */}
      <Stack>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">
            {t('bmTemplates')}
          </Title>
          <Stack gap="sm">
            <Text size="sm" c="gray.7">
              {t('bmTemplatesHint')}
            </Text>
            <Group align="start">
              <Select
                label={t('bmMoment')}
                flex={1}
                miw={260}
                value={moment}
                onChange={(value) => {
                  const chosen = MOMENTS.find((item) => item === value);
                  if (chosen) setMoment(chosen);
                }}
                data={MOMENTS.map((item) => ({ value: item, label: t(`moment_${item}` as TextKey) }))}
                allowDeselect={false}
                data-testid="bm-template-moment"
              />
              <Select
                label={t('bmTemplateLanguage')}
                value={language}
                onChange={(value) => {
                  const chosen = LANGUAGES.find((item) => item === value);
                  if (chosen) setLanguage(chosen);
                }}
                data={LANGUAGES.map((item) => ({ value: item, label: t(`bmLanguage_${item}` as TextKey) }))}
                allowDeselect={false}
                w={160}
                data-testid="bm-template-language"
              />
            </Group>
            {(['subject', 'text', 'sms', 'telegram'] as const).map((part) => {
              const isOwn = ownPart(own, moment, language, part) !== undefined;
              return (
                <Stack key={part} gap={4}>
                  <Textarea
                    label={t(PART_LABELS[part])}
                    description={t(isOwn ? 'bmOwn' : 'bmDefault')}
                    value={text(part)}
                    onChange={(event) => edit(part, event.currentTarget.value)}
                    error={
                      editedSince.has(templateField(moment, language, part))
                        ? undefined
                        : fieldErrors[templateField(moment, language, part)]
                    }
                    autosize
                    minRows={part === 'subject' ? 1 : part === 'sms' ? 2 : part === 'telegram' ? 3 : 5}
                    maxRows={16}
                    data-testid={`bm-template-${part}`}
                    data-own={String(isOwn)}
                  />
                  {isOwn && (
                    <Group>
                      <Button
                        // a subtle button's label on its hover background is 4.3:1 (axe): the default one is dark on grey
                        variant="default"
                        size="compact-sm"
                        onClick={() => backToDefault(part)}
                        data-testid={`bm-template-${part}-default`}
                      >
                        {t('bmUseDefault')}
                      </Button>
                    </Group>
                  )}
                </Stack>
              );
            })}
            <Group>
              <Button onClick={() => void save(own)} disabled={!changed} data-testid="bm-save-templates">
                {t('bmSaveTemplates')}
              </Button>
              {changed && (
                <Text size="sm" fw={600} role="status" data-testid="bm-templates-unsaved">
                  {t('bmUnsaved')}
                </Text>
              )}
              {saved && (
                <Text size="sm" c="teal.9" role="status" data-testid="bm-templates-saved">
                  {t('saved')}
                </Text>
              )}
            </Group>
            {!refusalFixed && <ApiError error={saveError} />}
          </Stack>
        </Card>
      </Stack>
      <Stack>
        <TemplatePreview
          shopId={shopId}
          moment={moment}
          language={language}
          subject={text('subject')}
          text={text('text')}
          sms={text('sms')}
        />
        <Card withBorder>
          <Stack gap="sm">
            <Title order={4} size="h6">
              {t('bmVariables')}
            </Title>
            <Stack gap={2} data-testid="bm-variables">
              {Object.entries(view.variables).map(([name, about]) => (
                <Text size="xs" key={name}>
                  <Code>{`{{ ${name} }}`}</Code> {variableAbout(name, about)}
                </Text>
              ))}
            </Stack>
            <Title order={4} size="h6">
              {t('bmFilters')}
            </Title>
            <Group gap={6}>
              {view.filters.map((filter) => (
                <Code key={filter}>{filter}</Code>
              ))}
            </Group>
          </Stack>
        </Card>
      </Stack>
    </SimpleGrid>
  );
}
