/**
 * The JSON Schema node as TypeBox writes it, in the few shapes the request validator reads:
 * the coercion (validation.ts) walks it for every value of a request, the error messages
 * (validation-errors.ts) look into it when a request is refused. Apart so that the messages
 * need nothing from validation.ts, which imports them: no import cycle between the two.
 */

/** A JSON Schema node as TypeBox produces it; only the keywords we coerce and explain by. */
export interface SchemaNode {
  type?: string | string[];
  anyOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  patternProperties?: Record<string, SchemaNode>;
  not?: unknown;
  /** Our extension keyword: the sentence to show when this node fails (pattern, format...). */
  'x-message'?: string;
}

export function typesOf(node: SchemaNode): string[] {
  if (node.type === undefined) return [];
  return Array.isArray(node.type) ? node.type : [node.type];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
