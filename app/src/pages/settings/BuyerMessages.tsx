/**
 * What a shop's buyers hear of their delivery (GET and PUT /v2/shops/{id}/buyer-messages): the
 * e-mail, SMS and Telegram channels with their moments and credentials, what they share (language,
 * quiet hours, the e-mails' brand, sandbox orders), saved with the service's field errors shown
 * beside their field (buyer-messages/ChannelCards.tsx); and the shop's templates with their live
 * preview (buyer-messages/TemplateEditor.tsx). The shop comes from ?shop= (the shops page links
 * here) or is the first one.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { api, ok } from '../../api';
import { fieldErrorsOf } from '../../batch';
import { ApiError } from '../../components/ApiError';
import { useSettingsForm } from '../../hooks/use-settings-form';
import { useText } from '../../i18n';
import { ShopSettingsPage } from './ShopSettingsPage';
import { ChannelCards, GeneralCard } from './buyer-messages/ChannelCards';
import { draftOf, type SettingsDraft, settingsBody } from './buyer-messages/messages-model';
import { TemplateEditor } from './buyer-messages/TemplateEditor';

function ShopMessages({ shopId }: { shopId: number }) {
  const { t } = useText();
  // the credentials typed are gone with the answer: the service never says them back
  const form = useSettingsForm(
    async () => ok(await api.GET('/v2/shops/{id}/buyer-messages', { params: { path: { id: shopId } } })),
    draftOf,
    [shopId],
  );
  const { saved, draft, saveError, changed, done } = form;
  if (!saved || !draft) return <ApiError error={form.loadError} />;

  const change = (next: SettingsDraft) => form.edit(next);
  const save = () =>
    form.save(async (sent, before) =>
      ok(
        await api.PUT('/v2/shops/{id}/buyer-messages', {
          params: { path: { id: shopId } },
          body: settingsBody(sent, before),
        }),
      ),
    );
  const fieldErrors = fieldErrorsOf(saveError);
  return (
    <Stack>
      <ChannelCards draft={draft} saved={saved} fieldErrors={fieldErrors} onChange={change} />
      <GeneralCard draft={draft} fieldErrors={fieldErrors} onChange={change} />
      <Group>
        <Button onClick={() => void save()} disabled={!changed} data-testid="bm-save-settings">
          {t('bmSaveSettings')}
        </Button>
        {changed && (
          <Text size="sm" fw={600} role="status" data-testid="bm-settings-unsaved">
            {t('bmUnsaved')}
          </Text>
        )}
        {done && (
          <Text size="sm" c="teal.9" role="status" data-testid="bm-settings-saved">
            {t('saved')}
          </Text>
        )}
      </Group>
      <ApiError error={saveError} />
      <TemplateEditor shopId={shopId} shopLanguage={saved.language} />
    </Stack>
  );
}

export function BuyerMessagesPage() {
  return (
    <ShopSettingsPage
      title="buyerMessages"
      hint="bmHint"
      selectTestId="bm-shop"
      editor={(shopId) => <ShopMessages shopId={shopId} />}
    />
  );
}
