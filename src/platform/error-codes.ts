/**
 * The closed catalogue of error codes: every `code` a client can read in an error body is a
 * key here, with what it means. `platform/errors.ts` takes only these (a new refusal adds its
 * code here first), and the OpenAPI document publishes them as the enum of `Error.code`.
 */
export const ERROR_CODES = {
  // the request itself
  validation_failed: 'A field is missing or wrong: errors[] names each ({field, message}).',
  bad_request: 'The request cannot be read (a malformed header, a body Fastify refuses).',
  bad_url: 'The URL cannot be read (bad percent-encoding).',
  invalid_json: 'The body is not valid JSON.',
  json_too_deep: 'The JSON body nests more than 32 levels.',
  json_sent_as_form: 'The body is JSON sent with a form Content-Type (curl -d): send Content-Type: application/json.',
  form_too_large:
    'The form body or query string holds more than 20,000 fields, 60,000 brackets or 1,000 distinct names (send JSON).',
  form_too_deep: 'A form key nests more than 12 brackets deep.',
  invalid_file: 'An uploaded file is not what the operation takes (not base64, not an xlsx).',
  invalid_template: 'The xlsx lacks columns of the import template (errors[] names each).',
  import_too_large: 'The import holds more rows than one import takes: nothing was imported.',
  body_too_large: 'The body is larger than BODY_LIMIT_BYTES (413).',
  headers_too_large: 'The headers are too large (431).',
  path_parameter_too_long: 'A path parameter is longer than the service takes (414).',
  unsupported_media_type: 'The body is neither JSON nor form-encoded (415).',
  request_timeout: 'The request did not arrive in time (408).',
  route_not_found: 'No operation has this method and path (404).',
  method_not_allowed: 'The path takes other methods: the Allow header names them (405).',
  not_acceptable:
    'The Accept header names no answer the operation gives (406; MCP: application/json and text/event-stream).',
  // who is calling
  unauthorized: 'No token, or a token that is unknown, revoked or expired (401).',
  invalid_token: 'The token is not the one this operation takes (GET /metrics: METRICS_TOKEN).',
  invalid_credentials: 'Login: the e-mail and password do not match an employee.',
  invalid_operator_token: 'The operator token is unknown or not for this warehouse or scope.',
  invalid_carrier_secret: "A delivery company's status push carries the wrong X-Carrier-Secret.",
  invalid_widget_key: 'The publishable widget key is unknown or revoked.',
  origin_not_allowed: "The widget is called from a page whose origin the key's shop does not allow.",
  forbidden: 'A shop API key reaching outside its shop, or an employee doing what only the account may (403).',
  key_scope_missing:
    'A scoped API key called an operation outside its scopes: the message and errors[].message name the scope it needs (403).',
  audit_chain_broken:
    'npm run cli -- audit verify: an entry of the audit trail was removed or edited (the message names the first broken one).',
  key_address_refused: 'A scoped API key used from an address outside its IP allow-list (403).',
  rate_limited: 'Too many requests this minute: retry after Retry-After (429).',
  session_expired: "The dashboard's session cookie names a token that has ended: sign in again (401).",
  cross_site_refused: "A sign-in, sign-out or set-up sent by another site's page (login CSRF): refused (403).",
  csrf_token_invalid: "An unsafe call of a cookie session without the session's X-CSRF-Token (403).",
  not_a_login: 'Only an employee login token is ended by signing out (409).',
  last_owner: 'The last owner of an account cannot be removed or made a shop manager (409).',
  password_too_weak:
    'The password breaks the policy: at least 10 characters, not one character repeated, not the e-mail, not a common password (422).',
  link_invalid:
    'A set-up, invitation, reset or sign-up link that is unknown, used, expired or of another purpose (404).',
  signup_closed: 'Sign-up is off on this instance (SIGNUP=off): accounts are made by its operator (404).',
  signup_invite_only: 'Sign-up takes invitations only on this instance (SIGNUP=invite) (403).',
  second_factor_required: 'The employee signs in with a second factor: send the code of the authenticator app (401).',
  second_factor_invalid: 'The second-factor code (or recovery code) is wrong or was used already (401).',
  second_factor_setup_required:
    "The account's owners require a second factor: set one up (POST /v2/auth/second-factor/sign-in-setup) and sign in with its code (401).",
  second_factor_enforced: "The account's owners require a second factor: it cannot be turned off (409).",
  second_factor_set_up:
    'At sign-in, a second factor is set up only when the owners require one and none is set up yet (409).',
  account_set_up: 'The account already has an employee who signs in: no set-up link is given for it (409).',
  concurrent_change: 'Another change of the same record was written at the same moment: send yours again (409).',
  already_invited: 'An invitation to this e-mail is pending in the account: re-send or withdraw it (409).',
  // the Shop-Id header
  shop_id_required: 'The operation needs a Shop-Id header.',
  unknown_shop: 'Shop-Id names no shop of this account.',
  invalid_shop_id: 'Shop-Id is not a shop id (a positive integer).',
  // records
  not_found: "No such record in this account (another account's records are not found either).",
  file_not_ready: 'The file is still being written: ask again after Retry-After (202).',
  email_taken: 'An employee with this e-mail already exists.',
  duplicate_vendor_code: 'Another product of the shop has this vendor code.',
  duplicate_binding: 'A product of the shop is already bound to this marketplace product.',
  warehouse_in_use: 'The warehouse is the sending warehouse of a shop: it cannot be deleted.',
  warehouse_not_editable: 'A fulfilment warehouse of the service: only its staff change it.',
  warehouse_type_immutable: 'A warehouse does not change between sender and fulfilment.',
  // state and business rules
  order_state: "The order's status does not allow the operation (errors[] lists each refused id in batches).",
  order_changed: 'The order changed meanwhile; read it again.',
  insufficient_stock: 'The fulfilment warehouse does not hold enough of a product.',
  no_fulfilment_stock: 'None of the products has ever been at a fulfilment warehouse.',
  unknown_company: 'No delivery company (or own delivery method) of this account has that id.',
  unknown_locality: 'The locality cannot be found in the directory.',
  unknown_sender_locality: "The sender's locality cannot be found in the directory.",
  option_unavailable: 'The company cannot deliver this cart there (or the point cannot take it).',
  price_changed: 'The price the buyer saw is no longer the price: the new quote is in the answer, nothing was made.',
  not_own_delivery: 'The order is with a delivery company: its statuses come from the company, not the shop.',
  not_simulated: 'The order is not with a built-in (simulated) company, or the simulation is off.',
  live_contract: 'The sandbox is refused to an account with a live delivery company contract.',
  channel_refused:
    "A buyer-message channel's credentials were refused by the SMS gateway or Telegram, or could not be checked (errors[] names the field).",
  no_warehouse:
    'The account has no warehouse whose city is known (a sandbox delivery history leaves from those cities).',
  period_closed: 'The billing period is closed.',
  overpayment: 'The payment is more than what is left to pay of the bill.',
  pickup_exists: 'A pickup is already booked for that warehouse, company and day.',
  pickup_state: "The pickup's status does not allow the operation.",
  pickup_changed: 'The pickup changed meanwhile; read it again.',
  no_orders: 'The pickup has no orders to print its act labels for.',
  supply_state: "The supply's status does not allow the operation.",
  supply_changed: 'The supply changed meanwhile; read it again.',
  inspection_done:
    'The returned parcel was inspected already, with other outcomes: each line is recorded once (409; the same outcomes again answer the inspection).',
  partial_buyout_refused:
    "A partial buyout where the order's point or payment does not allow it, or lines that are not the order's (409/422).",
  selection_not_found: 'No widget selection has this token.',
  selection_expired: 'The widget selection expired before it was confirmed.',
  selection_used: 'The widget selection already made an order.',
  preview_selection: "A choice made in the dashboard's widget preview: a preview key never makes an order (422).",
  selection_unavailable: 'The option the buyer chose cannot be delivered any more.',
  order_not_made: 'No order was made of this widget selection yet.',
  contacts_missing: 'The widget took no recipient contacts for this selection.',
  webhook_disabled: 'The webhook endpoint is disabled: enable it first.',
  cms_callbacks: "The endpoint is a shop's CMS callbacks: change it through the shop.",
  // other systems
  carrier_auth_failed: 'The delivery company refused these credentials.',
  carrier_unavailable: 'The delivery company does not answer now; try again later (503).',
  marketplace_auth_failed: 'The marketplace refused these credentials.',
  marketplace_unavailable: 'The marketplace does not answer now; try again later.',
  marketplace_not_connected: 'The account has no integration with this marketplace.',
  marketplace_without_integration: 'The service has no integration with this marketplace yet.',
  cms_not_answering: "The shop's CMS did not answer the call.",
  // the service
  idempotency_key_reused: 'The Idempotency-Key came before with another body (409).',
  idempotency_request_in_progress: 'The first request with this Idempotency-Key is still running (409).',
  idempotency_outcome_unknown:
    'The first request with this Idempotency-Key was carried out but its answer was lost (a crash): it is not run twice (409).',
  widget_not_built: 'The checkout widget is not built on this instance (npm run build).',
  app_not_built: 'The dashboard is not built on this instance (npm run build).',
  shutting_down: 'The process is stopping: retry (503).',
  not_ready: 'The database does not answer (GET /ready, 503).',
  internal_error: 'A bug: quote the log id to support (500).',
} as const satisfies Record<string, string>;

/** A code of the catalogue. */
export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}
