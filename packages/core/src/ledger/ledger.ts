/**
 * One cost line of a run. `(runId, entryId)` identifies it: recording the same entry again is a
 * no-op, so a retried report never double-counts.
 */
export interface LedgerEntry {
  runId: string;
  entryId: string;
  usd: number;
  label?: string;
}

/**
 * The spend ledger contract: idempotent on `(runId, entryId)`; the same entry with a different
 * payload is a `conflict` error, never a silent overwrite.
 *
 * @example
 * ```ts
 * import type { Ledger } from '@toolctx/core';
 * import { createMemoryLedger } from '@toolctx/core/memory';
 * const ledger: Ledger = createMemoryLedger();
 * await ledger.record({ runId: 'r', entryId: 'e1', usd: 0.25 });
 * await ledger.totalUsd('r'); // 0.25
 * ```
 */
export interface Ledger {
  /** Records one cost; the same `entryId` again with the same payload is a no-op. */
  record(entry: LedgerEntry): Promise<void>;
  /** The sum of the costs recorded for `runId`, in US dollars. */
  totalUsd(runId: string): Promise<number>;
}
