/**
 * The accounts' own address settings (kept apart from tables.ts, the register's, which the import
 * owns): a shop's DaData keys, sealed with the instance secret.
 */
export interface AddressSettingsTables {
  address_settings: {
    account_id: number;
    /** JSON {apiKey, secretKey?} sealed by platform/crypto's SecretBox; null once removed. */
    dadata_keys: string | null;
    updated_at: string;
  };
}
