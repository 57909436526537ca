/**
 * TOTP second factor (RFC 6238: SHA-1, 6 digits, 30 s, by `otpauth`), with ten one-time recovery
 * codes. The secret is sealed with the instance secret (SecretBox) in the database; recovery codes
 * are kept as HMACs under a key derived from the same secret, so a dump alone cannot test guesses.
 * A code's 30-second step is taken once: the same code, or an older one, is refused afterwards
 * (RFC 6238 section 5.2). One step either side of now is accepted for clocks a little off.
 */
import { createHmac, randomInt } from 'node:crypto';
import type BwipJs from 'bwip-js';
import { Secret, TOTP } from 'otpauth';
import type { Scope } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/crypto.js';
import { AppError, conflict } from '../../platform/errors.js';
import { onFirstUse } from '../../platform/lazy-require.js';
import type { AccessStore, SecondFactorRecord } from './access-store.js';

const bwipjs = onFirstUse<typeof BwipJs>('bwip-js');

const PERIOD_SECONDS = 30;
const RECOVERY_CODES = 10;
/** Recovery codes: 10 characters of an alphabet without look-alikes (~50 bits), shown as xxxxx-xxxxx. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export interface SecondFactorSetup {
  /** The secret in base32, for an app that cannot read the QR code. */
  secret: string;
  /** The otpauth:// URI the QR code holds. */
  uri: string;
  /** The QR code as an SVG data URI (the dashboard's CSP allows data: images). */
  qrCode: string;
}

function totpOf(base32: string, label = ''): TOTP {
  return new TOTP({
    issuer: 'Delivery service',
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(base32),
  });
}

export class SecondFactorService {
  private readonly recoveryKey: string;

  constructor(
    private readonly store: AccessStore,
    private readonly secretBox: SecretBox,
  ) {
    this.recoveryKey = secretBox.derive('recovery-codes');
  }

  private recoveryHash(code: string): string {
    const plain = code.toLowerCase().replace(/[^a-z0-9]/g, '');
    return createHmac('sha256', this.recoveryKey).update(plain).digest('hex');
  }

  async record(accountId: number, employeeId: number): Promise<SecondFactorRecord> {
    const record = await this.store.secondFactorOf(accountId, employeeId);
    if (!record) throw new AppError(404, 'not_found', 'The employee was not found.');
    return record;
  }

  /** A new secret to set up (it replaces any other being set up); on only once a code of it is given. */
  async begin(accountId: number, employeeId: number, label: string): Promise<SecondFactorSetup> {
    const secret = new Secret({ size: 20 }).base32;
    await this.store.setPendingSecret(accountId, employeeId, this.secretBox.seal(secret));
    const uri = totpOf(secret, label).toString();
    const svg = bwipjs().toSVG({ bcid: 'qrcode', text: uri, scale: 4, paddingwidth: 4, paddingheight: 4 });
    return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** At sign-in, when the owners require a second factor the employee has not set up yet. */
  async beginRequired(accountId: number, employeeId: number, label: string): Promise<SecondFactorSetup> {
    const record = await this.record(accountId, employeeId);
    if (record.secret)
      throw conflict('second_factor_set_up', 'A second factor is set up already: sign in with its code.');
    if (!record.required)
      throw conflict('second_factor_set_up', 'No second factor is required: set one up after signing in, if you wish.');
    return this.begin(accountId, employeeId, label);
  }

  /** The step of `code` under `sealedSecret` (one step either side of now), or null. */
  private stepOf(sealedSecret: string, code: string, now: number): number | null {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return null;
    const delta = totpOf(this.secretBox.open(sealedSecret)).validate({ token, timestamp: now, window: 1 });
    return delta === null ? null : TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
  }

  /**
   * Turns on the secret being set up when `code` is one of its codes; answers the recovery codes
   * (shown once), or null when the code is not right.
   */
  async confirm(record: SecondFactorRecord, code: string, now = Date.now()): Promise<string[] | null> {
    if (!record.pending) return null;
    const step = this.stepOf(record.pending, code, now);
    if (step === null) return null;
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
      return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
    });
    await this.store.enableSecondFactor(
      record.accountId,
      record.employeeId,
      record.pending,
      step,
      codes.map((item) => this.recoveryHash(item)),
    );
    return codes;
  }

  /** Whether `code` is a current TOTP code not taken before, or an unused recovery code (then used up). */
  async verify(record: SecondFactorRecord, code: string, now = Date.now()): Promise<boolean> {
    if (!record.secret) return false;
    const step = this.stepOf(record.secret, code, now);
    if (step !== null) return this.store.takeStep(record.accountId, record.employeeId, step);
    if (code.replace(/[^a-z0-9]/gi, '').length !== 10) return false;
    return this.store.useRecoveryCode(record.accountId, record.employeeId, this.recoveryHash(code));
  }

  /**
   * The second factor of a sign-in whose password was right: nothing when the employee has none
   * and none is required; else the code is needed (401 second_factor_required, then
   * second_factor_invalid); a required factor not set up yet is 401 second_factor_setup_required
   * until a code of the secret being set up comes (then it is on, and its recovery codes answered).
   */
  async atSignIn(accountId: number, employeeId: number, code: string | undefined): Promise<string[] | null> {
    const record = await this.record(accountId, employeeId);
    if (record.secret) {
      if (!code) throw secondFactorRequired();
      if (!(await this.verify(record, code))) throw secondFactorInvalid();
      return null;
    }
    if (!record.required) return null;
    if (!record.pending || !code)
      throw new AppError(
        401,
        'second_factor_setup_required',
        "The account's owners require a second factor: set one up (POST /v2/auth/second-factor/sign-in-setup), then sign in with its code.",
      );
    const codes = await this.confirm(record, code);
    if (!codes) throw secondFactorInvalid();
    return codes;
  }

  async status(scope: Scope): Promise<{ enabled: boolean; required: boolean; recoveryCodesLeft: number }> {
    const employeeId = requireEmployee(scope);
    const record = await this.record(scope.accountId, employeeId);
    return {
      enabled: record.secret !== null,
      required: record.required,
      recoveryCodesLeft: record.secret ? await this.store.recoveryCodesLeft(scope.accountId, employeeId) : 0,
    };
  }

  async disable(scope: Scope): Promise<void> {
    const employeeId = requireEmployee(scope);
    const record = await this.record(scope.accountId, employeeId);
    if (record.required)
      throw conflict('second_factor_enforced', "The account's owners require a second factor: it stays on.");
    await this.store.disableSecondFactor(scope.accountId, employeeId);
  }
}

export function requireEmployee(scope: Scope): number {
  if (scope.kind !== 'employee' || scope.employeeId === null)
    throw conflict('not_a_login', 'Only an employee signed in with a password has sessions and a second factor.');
  return scope.employeeId;
}

export function secondFactorRequired(): AppError {
  return new AppError(
    401,
    'second_factor_required',
    'The password is right; send the code of the authenticator app (or a recovery code) as `code`.',
  );
}

export function secondFactorInvalid(): AppError {
  return new AppError(401, 'second_factor_invalid', 'The code is wrong or was used already.', [
    { field: 'code', message: 'is not a code of the authenticator app' },
  ]);
}
