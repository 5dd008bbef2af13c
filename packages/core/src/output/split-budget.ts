import { ToolctxError } from '../errors.js';

/**
 * Each call's share of one batch's output budget: equal shares, rounded down, so one runaway
 * tool cannot starve its siblings. An infinite budget gives infinite shares.
 */
export function splitBudget(totalBytes: number, callCount: number): number {
  if (!(totalBytes >= 0) || (Number.isFinite(totalBytes) && !Number.isSafeInteger(totalBytes))) {
    throw new ToolctxError(
      'invalid-argument',
      `The output budget must be a whole number of bytes ≥ 0 (or Infinity), got ${totalBytes}.`,
    );
  }
  if (!(Number.isSafeInteger(callCount) && callCount >= 1)) {
    throw new ToolctxError(
      'invalid-argument',
      `A batch needs at least one call to share the budget, got ${callCount}.`,
    );
  }
  return Number.isFinite(totalBytes) ? Math.floor(totalBytes / callCount) : totalBytes;
}
