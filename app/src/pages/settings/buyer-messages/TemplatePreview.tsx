/**
 * A template as the buyer would get it (POST /v2/shops/{id}/buyer-messages/preview with the text
 * as typed, not yet saved): the e-mail's subject and text, and the SMS with its parts and
 * characters, from a sample order or the order whose id is typed. Asked again a moment after the
 * typing stops; an answer overtaken by a newer question is dropped.
 *
 * The e-mail's HTML is not shown: the dashboard's CSP allows no inline style, and an
 * <iframe srcdoc> inherits that policy, so the e-mail's inline-styled HTML would show unstyled and
 * every style attribute would be reported as a violation (checked in Chromium). Its text is shown.
 */
import { Card, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { type Answer, api, ok } from '../../../api';
import { ApiError } from '../../../components/ApiError';
import { type TextKey, useText } from '../../../i18n';
import type { Language, Moment } from './messages-model';

type Preview = Answer<'previewBuyerMessage'>;

/** Long enough not to ask at every key press, short enough to feel live. */
const DEBOUNCE_MS = 400;

interface Shown {
  email: Preview | null;
  emailError: unknown;
  sms: Preview | null;
  smsError: unknown;
}

const NOTHING: Shown = { email: null, emailError: null, sms: null, smsError: null };

export function TemplatePreview(props: {
  shopId: number;
  moment: Moment;
  language: Language;
  subject: string;
  text: string;
  sms: string;
}) {
  const { t } = useText();
  const { shopId, moment, language, subject, text, sms } = props;
  const [orderText, setOrderText] = useState('');
  const [shown, setShown] = useState<Shown>(NOTHING);
  const asked = useRef(0);
  const encodingName = (encoding: string) =>
    encoding === 'gsm7' || encoding === 'ucs2' ? t(`bmEncoding_${encoding}` as TextKey) : encoding;
  const orderId = /^\d{1,15}$/.test(orderText.trim()) ? Number(orderText.trim()) : undefined;

  useEffect(() => {
    asked.current += 1;
    const question = asked.current;
    const timer = setTimeout(() => {
      const about = { moment, language, ...(orderId ? { orderId } : {}) };
      const preview = (body: { channel: 'email' | 'sms'; subject?: string; body: string }) =>
        api
          .POST('/v2/shops/{id}/buyer-messages/preview', {
            params: { path: { id: shopId } },
            body: { ...about, ...body },
          })
          .then(ok);
      void Promise.allSettled([
        preview({ channel: 'email', subject, body: text }),
        preview({ channel: 'sms', body: sms }),
      ]).then(([email, short]) => {
        if (question !== asked.current) return;
        setShown({
          email: email.status === 'fulfilled' ? email.value : null,
          emailError: email.status === 'rejected' ? email.reason : null,
          sms: short.status === 'fulfilled' ? short.value : null,
          smsError: short.status === 'rejected' ? short.reason : null,
        });
      });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [shopId, moment, language, subject, text, sms, orderId]);

  return (
    <Card withBorder data-testid="bm-preview">
      <Title order={3} size="h5" mb="xs">
        {t('bmPreview')}
      </Title>
      <Stack gap="sm">
        <TextInput
          label={t('bmPreviewOrder')}
          value={orderText}
          inputMode="numeric"
          onChange={(event) => setOrderText(event.currentTarget.value)}
          data-testid="bm-preview-order"
        />
        <Title order={4} size="h6">
          {t('bmPreviewEmail')}
        </Title>
        {shown.email && (
          <>
            <Text fw={700} size="sm" data-testid="bm-preview-subject">
              {shown.email.subject}
            </Text>
            <Text size="sm" className="message-text" data-testid="bm-preview-text">
              {shown.email.text}
            </Text>
            <Text size="xs" c="gray.7">
              {t('bmPreviewHtmlNote')}
            </Text>
          </>
        )}
        <ApiError error={shown.emailError} title={t('bmPreviewRefused')} />
        <Title order={4} size="h6">
          {t('bmPreviewSms')}
        </Title>
        {shown.sms && (
          <>
            <Text size="sm" className="message-text" data-testid="bm-preview-sms">
              {shown.sms.text}
            </Text>
            {shown.sms.sms && (
              <Text
                size="xs"
                c="gray.7"
                data-testid="bm-preview-sms-count"
                data-segments={shown.sms.sms.segments}
                data-characters={shown.sms.sms.characters}
              >
                {t('bmSmsCount', {
                  segments: shown.sms.sms.segments,
                  characters: shown.sms.sms.characters,
                  encoding: encodingName(shown.sms.sms.encoding),
                })}
              </Text>
            )}
          </>
        )}
        <ApiError error={shown.smsError} title={t('bmPreviewRefused')} />
      </Stack>
    </Card>
  );
}
