/** Why a remote run stream gave up. */
export type RemoteRunErrorCode = 'http-status' | 'unreachable';

/**
 * The one error `connectRun` throws: the server refused the stream (`http-status`, with its
 * `status`), or it could not be reached after every retry (`unreachable`).
 *
 * @example
 * ```ts
 * import { connectRun, RemoteRunError } from '@toolctx/browser/remote';
 * declare const runId: string; // from POST /runs
 * declare function signIn(): void;
 * try {
 *   for await (const event of connectRun('https://tools.example.com', runId)) console.log(event.type);
 * } catch (error) {
 *   if (error instanceof RemoteRunError && error.status === 401) signIn();
 * }
 * ```
 */
export class RemoteRunError extends Error {
  readonly code: RemoteRunErrorCode;
  readonly status: number | undefined;

  constructor(code: RemoteRunErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'RemoteRunError';
    this.code = code;
    this.status = options.status;
  }
}
