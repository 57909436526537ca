/**
 * A template as the buyer would get it (POST /v2/shops/{id}/buyer-messages/preview with the text
 * as typed, not yet saved): the e-mail's subject and text, and the SMS with its parts and
 * characters, from a sample order or the order whose id is typed. Asked again a moment after the
 * typing stops; an answer overtaken by a newer question is dropped.
 *
 * The e-mail's HTML is shown in a frame of the page GET .../preview.html, which has a policy of its
 * own: the dashboard's CSP allows no inline style, and an <iframe srcdoc> would inherit it (the
 * e-mail's inline-styled HTML unstyled, every style attribute a violation: checked in Chromium).
 * The typed text goes in its query while the address stays short; a longer one shows the saved.
 */
import { Card, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { type Answer, api, ok } from '../../../api';
import { ApiError } from '../../../components/ApiError';
import { type TextKey, useText } from '../../../i18n';
import type { Language, Moment } from './messages-model';

type Preview = Answer<'previewBuyerMessage'>;

/** Long enough not to ask at every key press, short enough to feel live. */
const DEBOUNCE_MS = 400;
/** The longest frame address: servers take request lines of about 8 kB. */
const LONGEST_FRAME_URL = 6000;

/** The frame's address: the typed subject and text when they fit, else the saved template's. */
function htmlAddress(shopId: number, about: Record<string, string | number>, typed: Record<string, string>): string {
  const base = `/v2/shops/${shopId}/buyer-messages/preview.html`;
  const saved = new URLSearchParams(Object.entries(about).map(([key, value]) => [key, String(value)]));
  const withTyped = new URLSearchParams([...saved, ...Object.entries(typed)]);
  const address = `${base}?${withTyped}`;
  return address.length <= LONGEST_FRAME_URL ? address : `${base}?${saved}`;
}

interface Shown {
  /** The frame's address of the e-mail's HTML, set with the answer it belongs to. */
  html: string | null;
  email: Preview | null;
  emailError: unknown;
  sms: Preview | null;
  smsError: unknown;
}

const NOTHING: Shown = { html: null, email: null, emailError: null, sms: null, smsError: null };

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
  // the e-mail's HTML is a page of its own: asked only when looked at
  const [showHtml, setShowHtml] = useState(false);
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
          html: email.status === 'fulfilled' ? htmlAddress(shopId, about, { subject, body: text }) : null,
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
            <Switch
              label={t('bmPreviewShowHtml')}
              checked={showHtml}
              onChange={(event) => setShowHtml(event.currentTarget.checked)}
              data-testid="bm-preview-show-html"
            />
            {showHtml && shown.html && (
              <iframe
                title={t('bmPreviewHtmlNote')}
                src={shown.html}
                className="email-frame"
                data-testid="bm-preview-html"
              />
            )}
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
