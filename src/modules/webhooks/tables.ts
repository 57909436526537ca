import type { Flag, Id, Instant, Json } from '../../platform/db/column-types.js';

/**
 * Webhook endpoints (Standard Webhooks receivers) and shops' CMS callback targets, what each
 * is owed (deliveries, in order) and every attempt made to deliver it.
 */
export interface WebhookTables {
  webhook_endpoints: {
    id: Id;
    account_id: number;
    /** Only this shop's events; null: every event of the account. A CMS target always has one. */
    shop_id: number | null;
    /** webhook (Standard Webhooks, JSON) | cms (a shop plugin's callbacks, form-encoded) */
    kind: string;
    /** The receiver's URL; for a CMS, the plugin's API base the resource names are appended to. */
    url: string;
    description: string;
    /** JSON array of event types; empty: every type. */
    event_types: Json;
    enabled: Flag;
    /** Sealed `whsec_...` (webhook) or the shop token the plugin checks (cms). */
    secret: string;
    /** Sealed secret still signing until `previous_secret_until` (rotation grace). */
    previous_secret: string | null;
    previous_secret_until: Instant | null;
    /** cms: woocommerce | bitrix | opencart | diafan */
    cms_platform: string | null;
    /** cms (Diafan): sealed "API-ключ для интеграции". */
    cms_api_key: string | null;
    /** cms: JSON object {ourStatusCode: cmsStatusId}. */
    status_map: Json | null;
    /** When the current run of failures began (null: the last attempt succeeded). */
    failing_since: Instant | null;
    consecutive_failures: number;
    /** No attempt before this (back-off after a failure). */
    retry_at: Instant | null;
    /** One sender at a time per endpoint keeps its deliveries in order. */
    lease_until: Instant | null;
    disabled_reason: string | null;
    created_at: Instant;
    updated_at: Instant;
  };
  webhook_deliveries: {
    id: Id;
    account_id: number;
    endpoint_id: number;
    /** The event's public id (GET /v2/events), sent as webhook-id; null for a test message. */
    event_id: number | null;
    /** webhook-id: the event id, or test_<n>. */
    message_id: string;
    event_type: string;
    order_id: number | null;
    /** cms: order-status-update | product-quantity-update */
    resource: string | null;
    /** The body sent, as it is signed (JSON for a webhook, form fields as JSON for a CMS). */
    body: string;
    /** pending | delivered | failed (given up: the endpoint was disabled) */
    status: string;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    delivered_at: Instant | null;
    created_at: Instant;
  };
  webhook_attempts: {
    id: Id;
    account_id: number;
    endpoint_id: number;
    delivery_id: number;
    at: Instant;
    duration_ms: number;
    /** The answer's HTTP status; null when there was none (timeout, refused, blocked). */
    http_status: number | null;
    error: string | null;
    /** The answer's first bytes. */
    response_head: string | null;
  };
}
