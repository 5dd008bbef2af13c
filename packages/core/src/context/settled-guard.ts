import type { CachePort } from '../cache/cache-port.js';
import { ToolctxError } from '../errors.js';
import type { Outcome } from '../runtime/attempt.js';
import type { Workspace } from '../workspace/workspace.js';
import type { RunLedger } from './types.js';

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
  ended: { readonly settled: boolean; readonly result: Outcome | undefined },
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
export function callSettled(toolName: string, verb: string, outcome: Outcome | undefined): ToolctxError {
  const how = endedAs(outcome);
  return new ToolctxError(
    'call-settled',
    `"${toolName}" has already ended (${how}), so ${verb} was refused and nothing was written. A call cannot act once it has finished, failed, been cancelled or timed out: await every write before execute returns.`,
    { details: { tool: toolName, port: verb, ended: how } },
  );
}

function endedAs(outcome: Outcome | undefined): string {
  if (!outcome || outcome.ok) return 'finished';
  if (outcome.error.kind === 'timeout') return 'timed out';
  if (outcome.error.kind === 'aborted') return 'cancelled';
  return 'failed';
}

/** `workspace` with its writes refused once the call has ended; reads pass through. */
export function guardWorkspace(workspace: Workspace, guard: SettledGuard): Workspace {
  return {
    root: workspace.root,
    resolve: (raw) => workspace.resolve(raw),
    readText: (path) => workspace.readText(path),
    readBytes: (path) => workspace.readBytes(path),
    list: (prefix) => workspace.list(prefix),
    write: (path, data) => guard.act('ctx.workspace.write', () => workspace.write(path, data)),
    delete: (path) => guard.act('ctx.workspace.delete', () => workspace.delete(path)),
  };
}

/**
 * `cache` with `set` and `delete` refused once the call has ended. A `set` in flight when the call
 * ends is taken back: the entry is deleted and the set rejects.
 */
export function guardCache(cache: CachePort, guard: SettledGuard): CachePort {
  const verb = 'ctx.cache.set';
  return {
    get: (key) => cache.get(key),
    set: (key, value, options) =>
      guard.act(verb, async () => {
        await cache.set(key, value, options);
        if (!guard.settled) return;
        await cache.delete(key).catch(() => {});
        throw guard.refusal(verb);
      }),
    delete: (key) => guard.act('ctx.cache.delete', () => cache.delete(key)),
  };
}

/** `ledger` with `record` refused once the call has ended; `totalUsd` passes through. */
export function guardLedger(ledger: RunLedger, guard: SettledGuard): RunLedger {
  return {
    record: (entry) => guard.act('ctx.ledger.record', () => ledger.record(entry)),
    totalUsd: () => ledger.totalUsd(),
  };
}
