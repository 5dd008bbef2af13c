import type { ErrorInfo, ErrorKind } from '@toolctx/core';

/**
 * The kinds of failure the HTTP door and the run host report: core's {@link ErrorKind} plus the
 * kinds only a network door has (a malformed request, a missing identity, a trimmed event log).
 */
export type DoorErrorKind =
  | ErrorKind
  | 'bad-request'
  | 'unauthenticated'
  | 'not-found'
  | 'conflict'
  | 'events-trimmed'
  | 'payload-too-large'
  | 'request-timeout'
  | 'unsupported-media-type'
  | 'misdirected-request'
  | 'limit-exceeded';

/**
 * An {@link ErrorInfo} whose kind may also be one of the door's own kinds. Every HTTP error body is one.
 *
 * @example
 * ```ts
 * import type { DoorErrorInfo } from '@toolctx/edge';
 * const response = await fetch('https://tools.example.com/runs/run_1/calls', { method: 'POST', body: '{"tool":"nope"}' });
 * const body = (await response.json()) as DoorErrorInfo;
 * if (body.kind === 'unknown-tool') console.log(body.details?.available);
 * ```
 */
export interface DoorErrorInfo extends Omit<ErrorInfo, 'kind'> {
  kind: DoorErrorKind;
}

/** The HTTP statuses a run-host answer can fail with. */
export type ReplyStatus = 400 | 404 | 409 | 410 | 429 | 501;

/**
 * What the run host answers: a value, or a failure that the HTTP door turns into `status` and an
 * {@link DoorErrorInfo} body. Plain data, so it crosses Durable Object RPC unchanged.
 *
 * @example
 * ```ts
 * import type { Reply, RunDirectory, RunInfo } from '@toolctx/edge';
 * declare const runs: RunDirectory;
 * const reply: Reply<RunInfo> = await runs.get('run_1').end({ tenant: 'acme', principal: 'ana' });
 * if (!reply.ok) console.log(reply.status, reply.error.message);
 * ```
 */
export type Reply<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      status: ReplyStatus;
      error: DoorErrorInfo;
      /** Seconds to wait before trying again: the HTTP door's `Retry-After` header. */
      retryAfter?: number;
    };

/** A successful reply. */
export function ok<T>(value: T): Reply<T> {
  return { ok: true, value };
}

/** A failed reply; never retryable (the request itself is wrong). */
export function refuse(
  status: ReplyStatus,
  kind: DoorErrorKind,
  message: string,
  details?: Record<string, unknown>,
): { ok: false; status: ReplyStatus; error: DoorErrorInfo } {
  const error: DoorErrorInfo = { kind, message, retryable: false };
  if (details) error.details = details;
  return { ok: false, status, error };
}

/** A `429 limit-exceeded` reply: retryable, after `retryAfter` seconds. */
export function retryLater(
  message: string,
  details: Record<string, unknown>,
  retryAfter: number,
): { ok: false; status: 429; error: DoorErrorInfo; retryAfter: number } {
  return {
    ok: false,
    status: 429,
    error: { kind: 'limit-exceeded', message, retryable: true, details },
    retryAfter,
  };
}
