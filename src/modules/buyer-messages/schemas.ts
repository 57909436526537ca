/** Buyers' messages: a shop's settings and templates, a preview, an order's message log, the report. */
import Type, { type Static } from 'typebox';
import { DateText, INT32_MAX, Nullable } from '../../platform/schemas.js';
import { CHANNELS, LANGUAGES, MOMENTS } from './moments.js';

const MomentName = Type.Enum([...MOMENTS], {
  description:
    'registered (the company has the order: track number and link), handed_over, at_point (address, hours, last day of storage), storage_ending (the last day of storage is tomorrow), out_for_delivery (the interval), delivered, refused, late (past the promised date), return_received',
});
const ChannelName = Type.Enum([...CHANNELS], { description: 'email, sms or telegram' });
const LanguageName = Type.Enum([...LANGUAGES], { description: 'ru Russian, en English' });
const Moments = Type.Array(MomentName, { maxItems: MOMENTS.length, uniqueItems: true });
const ClockTime = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM' });

const SettingsFields = {
  language: Type.Optional(LanguageName),
  quietHours: Type.Optional(
    Nullable(
      Type.Object(
        { from: ClockTime, to: ClockTime },
        {
          description:
            "SMS and Telegram messages due between from and to in the buyer's time zone (their locality's) wait until to; null: any hour",
        },
      ),
    ),
  ),
  brand: Type.Optional(
    Type.Object({
      logoUrl: Type.Optional(
        Nullable(
          Type.String({ maxLength: 500, pattern: '^https://', description: "The shop's logo in e-mails (https)" }),
        ),
      ),
      color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: "E-mails' accent colour" })),
    }),
  ),
  sandbox: Type.Optional(
    Type.Boolean({
      description:
        'Send for orders of the built-in (simulated) companies and of contracts in test mode too (off: they are recorded as skipped, nothing is sent)',
    }),
  ),
};

export const BuyerMessageSettingsInput = Type.Object({
  ...SettingsFields,
  email: Type.Optional(Type.Object({ enabled: Type.Boolean(), moments: Type.Optional(Moments) })),
  sms: Type.Optional(
    Type.Object({
      enabled: Type.Boolean(),
      moments: Type.Optional(Moments),
      gateway: Type.Optional(Nullable(Type.Enum(['smsru', 'smsc'], { description: 'smsru SMS.ru, smsc SMSC.ru' }))),
      sender: Type.Optional(
        Nullable(Type.String({ maxLength: 11, description: 'A sender name the gateway approved' })),
      ),
      apiId: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'SMS.ru: api_id (write-only)' }))),
      login: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'SMSC: login (write-only)' }))),
      password: Type.Optional(Nullable(Type.String({ maxLength: 200, description: 'SMSC: password (write-only)' }))),
    }),
  ),
  telegram: Type.Optional(
    Type.Object({
      enabled: Type.Boolean(),
      moments: Type.Optional(Moments),
      botToken: Type.Optional(
        Nullable(
          Type.String({
            maxLength: 200,
            description: "The shop's bot's token from @BotFather (write-only; checked with Telegram when saved)",
          }),
        ),
      ),
    }),
  ),
});
export type BuyerMessageSettingsInput = Static<typeof BuyerMessageSettingsInput>;

export const BuyerMessageSettings = Type.Object(
  {
    language: LanguageName,
    quietHours: Nullable(Type.Object({ from: Type.String(), to: Type.String() })),
    brand: Type.Object({ logoUrl: Nullable(Type.String()), color: Type.String() }),
    sandbox: Type.Boolean(),
    email: Type.Object({ enabled: Type.Boolean(), moments: Type.Array(MomentName) }),
    sms: Type.Object({
      enabled: Type.Boolean(),
      moments: Type.Array(MomentName),
      gateway: Nullable(Type.String()),
      sender: Nullable(Type.String()),
      configured: Type.Boolean({ description: 'The gateway has its credentials' }),
    }),
    telegram: Type.Object({
      enabled: Type.Boolean(),
      moments: Type.Array(MomentName),
      botUsername: Nullable(Type.String({ description: 'The bot (`t.me/<botUsername>`) once its token is saved' })),
    }),
  },
  { description: "Extension: what a shop's buyers hear of their delivery, and how" },
);
export type BuyerMessageSettings = Static<typeof BuyerMessageSettings>;

const Texts = Type.Object({
  subject: Type.Optional(Type.String({ maxLength: 4000 })),
  text: Type.Optional(Type.String({ maxLength: 4000 })),
  sms: Type.Optional(Type.String({ maxLength: 4000 })),
  telegram: Type.Optional(
    Type.String({ maxLength: 4000, description: "Telegram's message; left out: the e-mail's text" }),
  ),
});
const ByLanguage = Type.Object({ ru: Type.Optional(Texts), en: Type.Optional(Texts) });

export const TemplatesInput = Type.Object({
  templates: Type.Object(Object.fromEntries(MOMENTS.map((moment) => [moment, Type.Optional(ByLanguage)])), {
    description:
      "Liquid per moment, language and part (subject and text of an e-mail; sms; telegram, which says the e-mail's text when left out); a part left out is the default. Variables: GET .../templates; an unknown one is a 400 naming the field.",
  }),
});
export type TemplatesInput = Static<typeof TemplatesInput>;

export const TemplatesView = Type.Object({
  variables: Type.Record(Type.String(), Type.String()),
  filters: Type.Array(Type.String()),
  templates: Type.Array(
    Type.Object({
      moment: Type.String(),
      language: Type.String(),
      subject: Type.String(),
      text: Type.String(),
      sms: Type.String(),
      telegram: Type.String(),
      custom: Type.Array(Type.String(), { description: 'The parts the shop wrote (the rest are defaults)' }),
    }),
  ),
});
export type TemplatesView = Static<typeof TemplatesView>;

export const PreviewBody = Type.Object({
  moment: MomentName,
  channel: ChannelName,
  language: Type.Optional(LanguageName),
  orderId: Type.Optional(
    Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "A real order's data (else a sample)" }),
  ),
  subject: Type.Optional(Type.String({ maxLength: 4000, description: 'Try this instead of the saved template' })),
  body: Type.Optional(Type.String({ maxLength: 4000, description: 'Try this instead of the saved template' })),
});
export type PreviewBody = Static<typeof PreviewBody>;

export const PreviewHtmlQuery = Type.Object({
  moment: Type.Optional(
    Type.Enum([...MOMENTS], { default: 'delivered', description: 'The moment (delivered by default)' }),
  ),
  language: Type.Optional(LanguageName),
  orderId: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
  subject: Type.Optional(Type.String({ maxLength: 4000 })),
  body: Type.Optional(Type.String({ maxLength: 4000 })),
});
export type PreviewHtmlQuery = Static<typeof PreviewHtmlQuery>;

export const Preview = Type.Object({
  subject: Nullable(Type.String()),
  text: Type.String(),
  html: Nullable(Type.String({ description: "E-mail: the HTML the buyer sees (the shop's brand, logo and colour)" })),
  sms: Nullable(Type.Object({ segments: Type.Integer(), characters: Type.Integer(), encoding: Type.String() })),
});
export type Preview = Static<typeof Preview>;

export const BuyerMessage = Type.Object({
  id: Type.Integer(),
  moment: Type.String(),
  channel: Type.String(),
  address: Type.String({ description: 'The e-mail, phone (masked) or "Telegram"' }),
  status: Type.String({ description: 'pending, held (quiet hours), sent, delivered, failed, skipped' }),
  reason: Nullable(Type.String()),
  segments: Nullable(Type.Integer()),
  cost: Nullable(Type.Number({ description: 'roubles' })),
  sendAfter: Type.String(),
  createdAt: Type.String(),
  sentAt: Nullable(Type.String()),
});
export type BuyerMessage = Static<typeof BuyerMessage>;

export const MessagesReportQuery = Type.Object({
  dateFrom: DateText,
  dateTo: DateText,
  shopId: Type.Optional(Type.Integer({ minimum: 1, maximum: INT32_MAX })),
});
export type MessagesReportQuery = Static<typeof MessagesReportQuery>;

export const MessagesReport = Type.Object({
  rows: Type.Array(
    Type.Object({
      shopId: Type.Integer(),
      channel: Type.String(),
      messages: Type.Integer(),
      sent: Type.Integer(),
      failed: Type.Integer(),
      skipped: Type.Integer(),
      segments: Type.Integer(),
      cost: Type.Number({ description: 'roubles' }),
    }),
  ),
});
export type MessagesReport = Static<typeof MessagesReport>;
