import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './error-codes.js';
import { ERROR_SENTENCES_RU, errorLanguage, fieldMessageRu, refusalIn } from './error-language.js';

describe('the language of refusals', () => {
  it('is Russian only when Accept-Language puts it before English', () => {
    expect(errorLanguage(undefined)).toBe('en');
    expect(errorLanguage('')).toBe('en');
    expect(errorLanguage('ru')).toBe('ru');
    expect(errorLanguage('ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('ru');
    expect(errorLanguage('en-US,en;q=0.9,ru;q=0.8')).toBe('en');
    expect(errorLanguage('de-DE,de;q=0.9')).toBe('en');
    expect(errorLanguage('*')).toBe('en');
  });

  it('has a Russian sentence for every code of the catalogue', () => {
    expect(Object.keys(ERROR_SENTENCES_RU).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    for (const sentence of Object.values(ERROR_SENTENCES_RU)) expect(sentence).toMatch(/[А-Яа-яЁё]/);
  });

  it('says every validation message in Russian', () => {
    for (const message of [
      'is required',
      'must not be empty',
      'must be at least 8 characters long',
      'must be at most 200 characters long',
      'must be at least 1',
      'must be at most 999',
      'must be greater than 0',
      'must hold at least 2 values',
      'must hold at most 1000 values',
      'must hold exactly 3 values',
      'must be one of: 1, 2, 3',
      'must be a whole number',
      'must be a number or null',
      'must be true or false (1 or 0)',
      'must be a date in the form YYYY-MM-DD',
      'must be a string or a whole number',
      'must be a phone number of digits, with an optional leading +',
      'must not repeat values',
      'has an invalid value',
    ]) {
      expect(fieldMessageRu(message), message).toMatch(/[а-я]/);
    }
    // a phrasing it does not know stays as it was made
    expect(fieldMessageRu('is the sender warehouse of shop 5')).toBe('is the sender warehouse of shop 5');
  });

  it('leaves an English refusal as it was made', () => {
    const refusal = {
      code: 'validation_failed' as const,
      message: 'name: is required',
      errors: [{ field: 'name', message: 'is required' }],
    };
    expect(refusalIn('en', refusal)).toEqual({ message: refusal.message, errors: refusal.errors });
    expect(refusalIn('ru', refusal)).toEqual({
      message: 'Проверьте поле name: обязательное поле.',
      errors: [{ field: 'name', message: 'обязательное поле' }],
    });
  });
});
