/**
 * The one error type of the service. Every refusal a client can see is an AppError;
 * anything else that escapes a handler is a bug and becomes a 500 without details. Its code is
 * one of the closed catalogue (`error-codes.ts`).
 */
import type { ErrorCode } from './error-codes.js';

export type { ErrorCode } from './error-codes.js';

/** A problem with one field of the request (`field`) or one id of a batch (`id`). */
export interface ErrorItem {
  field?: string;
  id?: number | string;
  message: string;
}

export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly errors: ErrorItem[];

  constructor(statusCode: number, code: ErrorCode, message: string, errors: ErrorItem[] = []) {
    super(message);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.errors = errors;
  }
}

/** 400: the request itself is wrong; `errors` name the fields. */
export function badRequest(message: string, errors: ErrorItem[] = [], code: ErrorCode = 'validation_failed'): AppError {
  return new AppError(400, code, message, errors);
}

/** 400 for a single field, the usual case of a rule beyond the schema. */
export function fieldError(field: string, message: string): AppError {
  return badRequest(`${field}: ${message}`, [{ field, message }]);
}

/** 400 with several field errors collected by a service before refusing. */
export function fieldErrors(errors: ErrorItem[]): AppError {
  const first = errors[0];
  const summary = first ? `${first.field ?? first.id}: ${first.message}` : 'The request is invalid.';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  return badRequest(`${summary}${more}`, errors);
}

export function unauthorized(message = 'Authentication is required: send "Authorization: Bearer <token>".'): AppError {
  return new AppError(401, 'unauthorized', message);
}

export function forbidden(message: string): AppError {
  return new AppError(403, 'forbidden', message);
}

/** 404: unknown id, or an id of another account (never revealed as "forbidden"). */
export function notFound(what: string, id?: number | string): AppError {
  return new AppError(404, 'not_found', id === undefined ? `${what} was not found.` : `${what} ${id} was not found.`);
}

/** 409: the current state or a uniqueness rule does not allow the operation. */
export function conflict(code: ErrorCode, message: string, errors: ErrorItem[] = []): AppError {
  return new AppError(409, code, message, errors);
}

/** 422: the request is well-formed but a business rule refuses it as a whole. */
export function unprocessable(code: ErrorCode, message: string, errors: ErrorItem[] = []): AppError {
  return new AppError(422, code, message, errors);
}

/** Collects field errors and throws them together, so a client learns every problem at once. */
export class FieldErrorCollector {
  private readonly items: ErrorItem[] = [];

  add(field: string, message: string): void {
    this.items.push({ field, message });
  }

  get isEmpty(): boolean {
    return this.items.length === 0;
  }

  throwIfAny(): void {
    if (this.items.length > 0) throw fieldErrors(this.items);
  }
}
