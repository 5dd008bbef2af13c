import { ToolctxError } from '../errors.js';
import type { Ledger, LedgerEntry } from './ledger.js';

function checkEntry(entry: LedgerEntry): void {
  for (const field of ['runId', 'entryId'] as const) {
    if (typeof entry?.[field] !== 'string' || entry[field] === '') {
      throw new ToolctxError('invalid-argument', `A ledger entry needs a non-empty string "${field}".`);
    }
  }
  if (typeof entry.usd !== 'number' || !Number.isFinite(entry.usd)) {
    throw new ToolctxError(
      'invalid-argument',
      `A ledger entry needs "usd" as a finite number, got ${String(entry.usd)}.`,
    );
  }
  if (entry.label !== undefined && typeof entry.label !== 'string') {
    throw new ToolctxError('invalid-argument', 'A ledger entry "label" must be a string when given.');
  }
}

/**
 * A {@link Ledger} in memory. Negative amounts (refunds, credits) are allowed.
 *
 * @example
 * ```ts
 * import { createMemoryLedger } from '@toolctx/core/memory';
 * const ledger = createMemoryLedger();
 * await ledger.record({ runId: 'r', entryId: 'e1', usd: 0.1 });
 * await ledger.record({ runId: 'r', entryId: 'e1', usd: 0.1 }); // no-op
 * await ledger.totalUsd('r'); // 0.1
 * ```
 */
export function createMemoryLedger(): Ledger {
  const runs = new Map<string, Map<string, { usd: number; label: string | undefined }>>();
  return {
    async record(entry) {
      checkEntry(entry);
      let entries = runs.get(entry.runId);
      if (!entries) {
        entries = new Map();
        runs.set(entry.runId, entries);
      }
      const existing = entries.get(entry.entryId);
      if (existing) {
        if (existing.usd === entry.usd && existing.label === entry.label) return;
        throw new ToolctxError(
          'conflict',
          `Ledger entry "${entry.entryId}" of run "${entry.runId}" was already recorded with different values (usd ${existing.usd}, label ${JSON.stringify(existing.label ?? null)}). Use a new entryId for a new cost.`,
          { details: { runId: entry.runId, entryId: entry.entryId } },
        );
      }
      entries.set(entry.entryId, { usd: entry.usd, label: entry.label });
    },
    async totalUsd(runId) {
      let total = 0;
      for (const { usd } of runs.get(runId)?.values() ?? []) total += usd;
      return total;
    },
  };
}
