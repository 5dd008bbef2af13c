import type { RunLedger } from '../context/types.js';
import type { EventLog } from '../events/event-log.js';
import { budgetCheck } from '../ledger/budget-check.js';
import type { Ledger } from '../ledger/ledger.js';

/**
 * The run's view of the ledger (`ctx.ledger`): costs are filed under `runId`, and with a
 * `maxUsd` the first record that passes the warning mark emits one `budget.warning`. Refusing
 * calls once the budget is spent is admission's work, not this.
 */
export function bindRunLedger(
  ledger: Ledger,
  runId: string,
  maxUsd: number | undefined,
  log: EventLog,
): RunLedger {
  let warned = false;
  return {
    async record(entry) {
      await ledger.record({ ...entry, runId });
      if (maxUsd === undefined || warned) return;
      const spentUsd = await ledger.totalUsd(runId);
      if (budgetCheck({ spentUsd, maxUsd }) === 'warning' && !warned) {
        warned = true;
        log.emit('budget.warning', { spentUsd, maxUsd });
      }
    },
    totalUsd: () => ledger.totalUsd(runId),
  };
}
