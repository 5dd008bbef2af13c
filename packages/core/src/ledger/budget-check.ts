import { ToolctxError } from '../errors.js';

/**
 * Where a run stands against its spend limit: `'exceeded'` once spent passes the maximum,
 * `'warning'` from 80% of it, `'ok'` below. An infinite maximum is always `'ok'`.
 */
export function budgetCheck({
  spentUsd,
  maxUsd,
}: {
  spentUsd: number;
  maxUsd: number;
}): 'ok' | 'warning' | 'exceeded' {
  if (Number.isNaN(spentUsd) || Number.isNaN(maxUsd) || !(maxUsd >= 0)) {
    throw new ToolctxError(
      'invalid-argument',
      `budgetCheck needs numbers with maxUsd ≥ 0, got spent ${spentUsd}, max ${maxUsd}.`,
    );
  }
  if (maxUsd === Number.POSITIVE_INFINITY) return 'ok';
  if (spentUsd > maxUsd) return 'exceeded';
  if (spentUsd >= maxUsd * 0.8) return 'warning';
  return 'ok';
}
