export { budgetCheck } from './budget-check.js';
export type { Ledger, LedgerEntry } from './ledger.js';
export { createMemoryLedger } from './memory-ledger.js';
