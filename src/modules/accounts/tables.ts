import type { ColumnType, Generated } from 'kysely';
import type { Id, Instant, Json } from '../../platform/db/column-types.js';

export interface AccountTables {
  accounts: {
    id: Id;
    name: string;
    time_zone: string;
    created_at: Instant;
    /** The owners require a second factor (TOTP) of every employee. */
    second_factor_required: ColumnType<boolean | number, boolean | undefined, boolean>;
  };
  employees: {
    id: Id;
    account_id: number;
    name: string;
    /** Lower case; unique across the service, since login names no account. */
    email: string;
    password_hash: string;
    created_at: Instant;
    /** 'owner' (the whole account) or 'manager' (only the shops of employee_shops). */
    role: Generated<string>;
    /** The TOTP secret (base32), sealed with the instance secret; null: no second factor. */
    totp_secret: string | null;
    /** A secret being set up, sealed; it replaces `totp_secret` once a code of it is given. */
    totp_pending: string | null;
    /** The last 30-second step whose code was accepted: a code is never taken twice. */
    totp_last_step: number | null;
  };
  employee_recovery_codes: {
    account_id: number;
    employee_id: number;
    /** HMAC-SHA256 of the code with a key derived from the instance secret; deleted when used. */
    code_hash: string;
  };
  account_links: {
    id: Id;
    /** Null for a sign-up, whose account is made when the link is used. */
    account_id: number | null;
    /** The employee a password reset is for. */
    employee_id: number | null;
    purpose: string;
    /** SHA-256 of the token, hex; the token itself is only in the link sent. */
    token_hash: string;
    /** The address the link was sent to (an invitation's, a sign-up's, a reset's). */
    email: string | null;
    /** An invitation's name, role and shops; a sign-up's account name and password hash. */
    data: Json | null;
    created_at: Instant;
    expires_at: Instant;
  };
  employee_shops: {
    account_id: number;
    employee_id: number;
    shop_id: number;
    /** The order the shops were given in: the first is the manager's default shop. */
    position: number;
  };
  access_tokens: {
    id: Id;
    account_id: number;
    employee_id: number | null;
    /** SHA-256 of the token, hex; the token itself is never stored. */
    token_hash: string;
    label: string;
    created_at: Instant;
    expires_at: Instant | null;
    /** Sessions: when last used (kept to within minutes), from which browser and address it was made. */
    last_seen_at: Instant | null;
    user_agent: string | null;
    address: string | null;
  };
  api_keys: {
    id: Id;
    account_id: number;
    name: string;
    /** SHA-256 of the key, hex; the key itself is shown once, when made. */
    key_hash: string;
    /** The key's first characters, to tell keys apart in a list. */
    key_hint: string;
    /** JSON array of KeyScope names. */
    scopes: Json;
    /** JSON array of shop ids the key is limited to; null: every shop. */
    shop_ids: Json | null;
    /** JSON array of CIDR blocks or addresses; null: any address. */
    allowed_ips: Json | null;
    expires_at: Instant | null;
    created_at: Instant;
    /** Who made it: "employee:12" or "account-token". */
    created_by: string;
    /** Kept to within a minute (written by the token lookup, not per request). */
    last_used_at: Instant | null;
    revoked_at: Instant | null;
  };
}
