/** The stable kinds of failure toolctx reports. */
export type ErrorKind =
  | 'tool-error'
  | 'args-invalid'
  | 'timeout'
  | 'aborted'
  | 'approval-pending'
  /**
   * The call asked its user something a door could not put to them while it ran (MCP 2026's
   * `input_required`): `details.asks` are the asks to answer, and the call is made again with the answers.
   */
  | 'input-required'
  | 'approval-denied'
  | 'approval-invalid'
  | 'authorization-required'
  | 'credential-failed'
  | 'artifact-refused'
  | 'policy-refused'
  | 'budget-exceeded'
  | 'unknown-tool'
  | 'no-store'
  | 'unsupported'
  | 'invalid-argument'
  | 'integrity-failed'
  | 'quota-exceeded'
  | 'not-found'
  | 'conflict'
  /** A port of `ctx` was used after its call had ended (finished, failed, cancelled, timed out). */
  | 'call-settled'
  /** The call was running when its host restarted (an eviction, a deploy, a crash): its outcome is unknown. */
  | 'interrupted'
  // What doors answer for bad requests, each with its HTTP meaning.
  | 'bad-request'
  | 'unauthenticated'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'events-trimmed'
  /** The Web Worker the tool ran in is gone (terminated, or stopped by an uncaught error). */
  | 'door-lost'
  | 'internal';

/**
 * A failure as data: JSON-safe, safe to show a model or a client.
 *
 * `exception` is the class name of a foreign exception and nothing more: its message, values and
 * stack never cross.
 */
export interface ErrorInfo {
  kind: ErrorKind;
  message: string;
  exception?: string;
  retryable: boolean;
  details?: Record<string, unknown>;
}

/**
 * Turns anything a tool threw into an {@link ErrorInfo} that leaks nothing: a {@link ToolctxError}
 * keeps its kind, message and details; any other value shows only its class name.
 */
export function toErrorInfo(thrown: unknown): ErrorInfo {
  if (thrown instanceof ToolctxError) return thrown.info;
  const exception = className(thrown);
  return { kind: 'tool-error', message: `The tool failed with ${exception}.`, exception, retryable: false };
}

function className(value: unknown): string {
  if (value instanceof Error) return value.name || value.constructor?.name || 'Error';
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor?.name ?? 'Object';
  return typeof value;
}

/**
 * The one error class toolctx throws. Tools may throw it too, to fail with a chosen kind and a
 * message that is safe to show.
 *
 * @example
 * ```ts
 * import { ToolctxError } from '@toolctx/core';
 * throw new ToolctxError('policy-refused', 'Writing is not allowed while planning.');
 * ```
 */
export class ToolctxError extends Error {
  readonly info: ErrorInfo;

  constructor(
    kind: ErrorKind,
    message: string,
    options: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ToolctxError';
    this.info = { kind, message, retryable: options.retryable ?? false };
    if (options.details) this.info.details = options.details;
  }

  /** The error's kind, as in its {@link ErrorInfo}. */
  get kind(): ErrorKind {
    return this.info.kind;
  }
}
