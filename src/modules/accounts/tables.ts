import type { Generated } from 'kysely';
import type { Id, Instant } from '../../platform/db/column-types.js';

export interface AccountTables {
  accounts: {
    id: Id;
    name: string;
    time_zone: string;
    created_at: Instant;
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
    /**
     * Set for an invitation to an e-mail that signs in to another account: the e-mail typed,
     * shown to the owner; `email` is then a placeholder no one can sign in with.
     */
    invited_email: string | null;
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
  };
}
