/**
 * The password policy of every password an employee chooses (set-up, invitation, sign-up,
 * reset, change, the CLI): at least 10 characters, not one character repeated, not the e-mail,
 * not one of the most common passwords. A refusal is a 422 `password_too_weak` naming the field;
 * the field's message has its Russian in platform/error-language.ts.
 */
import { unprocessable } from '../../platform/errors.js';

export const MIN_PASSWORD_LENGTH = 10;

/**
 * The most common passwords of 10 characters or more (shorter ones are refused by length), from
 * the public breach lists' tops, and a few Russian keyboard ones. Compared in lower case.
 */
const COMMON_PASSWORDS = new Set([
  '1234567890',
  '0987654321',
  '12345678910',
  '123456789a',
  'a123456789',
  '1q2w3e4r5t',
  '1q2w3e4r5t6y',
  'q1w2e3r4t5',
  'q1w2e3r4t5y6',
  'qwertyuiop',
  'asdfghjkl;',
  'zxcvbnm123',
  'qwerty1234',
  'qwerty12345',
  'qwerty123456',
  '1qaz2wsx3edc',
  'zaq12wsxcde3',
  'password12',
  'password123',
  'password1234',
  'password!1',
  'passw0rd123',
  'iloveyou123',
  'princess123',
  'football123',
  'baseball123',
  'welcome123',
  'welcome1234',
  'letmein123',
  'sunshine123',
  'monkey12345',
  'dragon12345',
  'michael123',
  'abc1234567',
  'abcdefghij',
  'abcd123456',
  'administrator',
  'admin12345',
  'admin123456',
  'adminadmin',
  'changeme123',
  'superman123',
  'starwars123',
  'trustno1234',
  'qazwsxedcrfv',
  '1234qwerasdf',
  'asdf1234asdf',
  'samsung123',
  'computer123',
  'internet123',
  'parol12345',
  'parol123456',
  'пароль1234',
  'пароль12345',
  'йцукенгшщз',
  'йцукен12345',
  'qwertyqwerty',
  'passwordpassword',
  '11223344556677',
  '1122334455',
  '1234512345',
  '123123123123',
  '1234567891',
  '9876543210',
  '0123456789',
  '12345678900',
  '147258369',
  '1478963250',
  '7894561230',
  '123456789012',
  '1234567890q',
  'q123456789',
]);

export type PasswordProblem = string;

/** The first rule `password` breaks, as a field message, or null when it is strong enough. */
export function passwordProblem(password: string, email?: string | null): PasswordProblem | null {
  const characters = [...password];
  if (characters.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters long`;
  if (new Set(characters).size === 1) return 'must not be one character repeated';
  const lower = password.trim().toLowerCase();
  if (email && lower === email.trim().toLowerCase()) return 'must not be the e-mail address';
  if (COMMON_PASSWORDS.has(lower)) return 'is one of the most common passwords';
  return null;
}

/** Refuses a weak password: 422 `password_too_weak` with the field and its rule. */
export function checkPassword(field: string, password: string, email?: string | null): void {
  const problem = passwordProblem(password, email);
  if (problem)
    throw unprocessable('password_too_weak', `The password is too weak: it ${problem}.`, [{ field, message: problem }]);
}
