/** Tokens, password hashes and encryption of secrets at rest. */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  scrypt,
  timingSafeEqual,
  createHmac,
} from 'node:crypto';
import { promisify } from 'node:util';
import { BoundedMap } from './cache.js';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** A new bearer token: a readable prefix (what it is) and 32 random bytes. */
export function newToken(prefix: 'acc' | 'emp' | 'shp' | 'opr'): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Tokens are stored as SHA-256: enough for 256-bit random secrets, and fast to look up. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

/** `scrypt$N$r$p$salt$hash`, so parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize('NFKC'), salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * AES-256-GCM with a key derived from the instance secret. Used for values the owner must
 * be able to read back (a shop's API key, marketplace credentials) but that must not sit
 * readable in a database dump.
 */
export class SecretBox {
  private readonly key: Buffer;
  /** Opening is a cipher set-up per value; lists open many, so remember recent ones. */
  private readonly opened = new BoundedMap<string, string>(20_000);

  constructor(secret: string) {
    this.key = createHash('sha256').update(`delivery-service:secret-box:${secret}`).digest();
  }

  /** A secret derived from the instance secret for `label` (hex), the same in every process. */
  derive(label: string): string {
    return createHmac('sha256', this.key).update(label).digest('hex');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${iv.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
  }

  open(sealed: string): string {
    const known = this.opened.get(sealed);
    if (known !== undefined) return known;
    const plain = this.decrypt(sealed);
    this.opened.set(sealed, plain);
    return plain;
  }

  private decrypt(sealed: string): string {
    const [version, iv, body, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || body === undefined || !tag) throw new Error('Unknown sealed value format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
