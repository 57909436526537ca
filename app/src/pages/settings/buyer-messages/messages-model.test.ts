/** The buyer-messages page's logic without a browser: the settings' PUT, field errors, the shop's own templates. */
import { describe, expect, it } from 'vitest';
import {
  draftOf,
  momentsOf,
  ownOf,
  problemAt,
  type Settings,
  settingsBody,
  shownPart,
  smsConnected,
  type TemplatesView,
  templatesBody,
  withPart,
} from './messages-model';

const SAVED: Settings = {
  language: 'ru',
  quietHours: { from: '21:00', to: '09:00' },
  brand: { logoUrl: null, color: '#3b5bdb' },
  sandbox: false,
  email: { enabled: false, moments: ['at_point', 'delivered'] },
  sms: { enabled: true, moments: ['at_point'], gateway: 'smsru', sender: null, configured: true },
  telegram: { enabled: false, moments: ['registered'], botUsername: null },
};

describe('the buyer-messages settings', () => {
  it('sends no credential left empty and no gateway unchanged, so the saved ones stay unchecked', () => {
    const body = settingsBody(draftOf(SAVED), SAVED);
    expect(body.sms).toEqual({ enabled: true, moments: ['at_point'], sender: null });
    expect(body.telegram).toEqual({ enabled: false, moments: ['registered'] });
    expect(body.brand).toEqual({ color: '#3b5bdb', logoUrl: null });
    expect(body.quietHours).toEqual({ from: '21:00', to: '09:00' });
  });

  it('sends a credential typed, and the gateway with its own credentials only when it changes', () => {
    const draft = draftOf(SAVED);
    const typed = settingsBody({ ...draft, sms: { ...draft.sms, apiId: ' KEY ', login: 'unused' } }, SAVED);
    expect(typed.sms).toMatchObject({ apiId: 'KEY' });
    expect(typed.sms).not.toHaveProperty('login');
    expect(typed.sms).not.toHaveProperty('gateway');
    const other = { ...draft, sms: { ...draft.sms, gateway: 'smsc' as const, login: 'me', password: 'secret' } };
    expect(settingsBody(other, SAVED).sms).toMatchObject({ gateway: 'smsc', login: 'me', password: 'secret' });
    // the saved keys are SMS.ru's: SMSC's are not connected
    expect(smsConnected(other, SAVED)).toBe(false);
    expect(smsConnected(draft, SAVED)).toBe(true);
  });

  it('sends any hour as null and keeps the moments in their order', () => {
    expect(settingsBody({ ...draftOf(SAVED), anyHour: true }, SAVED).quietHours).toBeNull();
    expect(momentsOf(['late', 'registered', 'nonsense'])).toEqual(['registered', 'late']);
  });

  it('finds a field’s errors, and those of the fields inside it', () => {
    const errors = { sms: 'refused', 'sms.sender': 'too long', 'smsFoo.x': 'other' };
    expect(problemAt(errors, 'sms')).toBe('refused; too long');
    expect(problemAt(errors, 'sms.sender')).toBe('too long');
    expect(problemAt(errors, 'telegram.botToken')).toBeUndefined();
  });
});

describe('the templates', () => {
  const view: TemplatesView = {
    variables: { 'order.number': 'the number' },
    filters: ['ru_date'],
    templates: [
      {
        moment: 'at_point',
        language: 'ru',
        subject: 'Тема',
        text: 'Текст',
        sms: 'Своё SMS',
        telegram: 'Текст',
        custom: ['sms'],
      },
      {
        moment: 'at_point',
        language: 'en',
        subject: 'Subject',
        text: 'Text',
        sms: 'SMS',
        telegram: 'Text',
        custom: [],
      },
    ],
  };

  it('keeps the shop’s own parts, shows an edit over the answer and gives a part back to the default', () => {
    const own = ownOf(view);
    expect(own).toEqual({ at_point: { ru: { sms: 'Своё SMS' } } });
    const edited = withPart(own, 'at_point', 'en', 'subject', 'Order {{ order.number }}');
    expect(shownPart(view, edited, 'at_point', 'en', 'subject')).toBe('Order {{ order.number }}');
    expect(shownPart(view, edited, 'at_point', 'en', 'text')).toBe('Text');
    const back = withPart(edited, 'at_point', 'ru', 'sms', null);
    expect(templatesBody(back)).toEqual({
      templates: { at_point: { ru: {}, en: { subject: 'Order {{ order.number }}' } } },
    });
  });
});
