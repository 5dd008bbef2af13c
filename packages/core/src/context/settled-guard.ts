import { type ErrorInfo, ToolctxError } from '../errors.js';

/** How a call ended, as far as its refusals tell: finished, or failed with an error. */
export type Ending = { readonly ok: true } | { readonly ok: false; readonly error: ErrorInfo };

/**
 * Whether a call has ended, and the refusal its ports answer with once it has: a call that has
 * finished, failed, been cancelled or timed out may still read, but no longer act.
 */
export interface SettledGuard {
  readonly settled: boolean;
  /** The `call-settled` error for `verb` (such as `ctx.artifacts.put`). */
  refusal(verb: string): ToolctxError;
  /** `action()`, or a rejected refusal when the call has already ended. */
  act<T>(verb: string, action: () => Promise<T>): Promise<T>;
}

/** The guard of one attempt; `ended` reads its settled flag and how it ended. */
export function settledGuard(
  toolName: string,
  ended: { readonly settled: boolean; readonly result: Ending | undefined },
): SettledGuard {
  const guard: SettledGuard = {
    get settled() {
      return ended.settled;
    },
    refusal: (verb) => callSettled(toolName, verb, ended.result),
    act: (verb, action) => (ended.settled ? Promise.reject(guard.refusal(verb)) : action()),
  };
  return guard;
}

/** The one place the `call-settled` message is composed. */
export function callSettled(toolName: string, verb: string, outcome: Ending | undefined): ToolctxError {
  const how = endedAs(outcome);
  return new ToolctxError(
    'call-settled',
    `"${toolName}" has already ended (${how}), so ${verb} was refused and nothing was written. A call cannot act once it has finished, failed, been cancelled or timed out: await every write before execute returns.`,
    { details: { tool: toolName, port: verb, ended: how } },
  );
}

function endedAs(outcome: Ending | undefined): string {
  if (!outcome || outcome.ok) return 'finished';
  if (outcome.error.kind === 'timeout') return 'timed out';
  if (outcome.error.kind === 'aborted') return 'cancelled';
  return 'failed';
}
