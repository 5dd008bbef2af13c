import type { DoorErrorInfo, DoorErrorKind } from '../door/door-error.js';

/** A request the door refuses: thrown inside a route, answered by the app's error handler. */
export class HttpError extends Error {
  readonly info: DoorErrorInfo;

  constructor(
    readonly status: number,
    kind: DoorErrorKind,
    message: string,
    details?: Record<string, unknown>,
    /** Seconds to wait before retrying (a `Retry-After` header); set, the error is retryable. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'HttpError';
    this.info = { kind, message, retryable: retryAfter !== undefined };
    if (details) this.info.details = details;
  }
}

/** An error response: always an ErrorInfo JSON body, never a stack. */
export function errorResponse(status: number, info: DoorErrorInfo, headers?: HeadersInit): Response {
  const response = Response.json(info, { status, headers });
  response.headers.set('cache-control', 'no-store');
  return response;
}
