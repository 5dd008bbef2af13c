// The ports a tool reaches through its context, wrapped so that writes are refused once its call
// has ended (see settled-guard.ts); reads pass through.
import type { CachePort } from '../cache/cache-port.js';
import type { Workspace } from '../workspace/workspace.js';
import type { SettledGuard } from './settled-guard.js';
import type { RunLedger } from './types.js';

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
