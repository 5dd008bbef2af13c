import { describe, expect, it } from 'vitest';
import { ToolctxError } from '../errors.js';
import { budgetCheck } from './budget-check.js';
import { createMemoryLedger } from './memory-ledger.js';

describe('createMemoryLedger', () => {
  it('sums a run and keeps runs apart', async () => {
    const ledger = createMemoryLedger();
    await ledger.record({ runId: 'r1', entryId: 'a', usd: 0.5 });
    await ledger.record({ runId: 'r1', entryId: 'b', usd: 0.25, label: 'tokens' });
    await ledger.record({ runId: 'r2', entryId: 'a', usd: 9 });
    expect(await ledger.totalUsd('r1')).toBe(0.75);
    expect(await ledger.totalUsd('r2')).toBe(9);
    expect(await ledger.totalUsd('unknown')).toBe(0);
  });

  it('is idempotent on (runId, entryId) for the same payload', async () => {
    const ledger = createMemoryLedger();
    for (let i = 0; i < 3; i++) await ledger.record({ runId: 'r', entryId: 'e', usd: 0.1, label: 'x' });
    expect(await ledger.totalUsd('r')).toBe(0.1);
  });

  it('refuses the same entry with a different payload as a conflict, and keeps the first', async () => {
    const ledger = createMemoryLedger();
    await ledger.record({ runId: 'r', entryId: 'e', usd: 0.1 });
    for (const changed of [{ usd: 0.2 }, { usd: 0.1, label: 'new' }]) {
      const error = await ledger
        .record({ runId: 'r', entryId: 'e', ...changed })
        .catch((thrown: unknown) => thrown);
      expect(error).toBeInstanceOf(ToolctxError);
      expect((error as ToolctxError).kind).toBe('conflict');
      expect((error as ToolctxError).message).toMatch(/Use a new entryId/);
    }
    expect(await ledger.totalUsd('r')).toBe(0.1);
  });

  it('refuses malformed entries', async () => {
    const ledger = createMemoryLedger();
    for (const bad of [
      { runId: '', entryId: 'e', usd: 1 },
      { runId: 'r', entryId: 'e', usd: Number.NaN },
      { runId: 'r', entryId: 'e', usd: Number.POSITIVE_INFINITY },
      { runId: 'r', usd: 1 },
    ]) {
      await expect(ledger.record(bad as never)).rejects.toThrow(ToolctxError);
    }
    expect(await ledger.totalUsd('r')).toBe(0);
  });
});

describe('budgetCheck', () => {
  it('is ok below 80%, a warning from 80%, exceeded past the maximum', () => {
    expect(budgetCheck({ spentUsd: 0.79, maxUsd: 1 })).toBe('ok');
    expect(budgetCheck({ spentUsd: 0.8, maxUsd: 1 })).toBe('warning');
    expect(budgetCheck({ spentUsd: 1, maxUsd: 1 })).toBe('warning');
    expect(budgetCheck({ spentUsd: 1.0001, maxUsd: 1 })).toBe('exceeded');
    expect(budgetCheck({ spentUsd: 1e9, maxUsd: Number.POSITIVE_INFINITY })).toBe('ok');
    expect(budgetCheck({ spentUsd: 0.01, maxUsd: 0 })).toBe('exceeded');
  });

  it('refuses NaN and negative maximums', () => {
    expect(() => budgetCheck({ spentUsd: Number.NaN, maxUsd: 1 })).toThrow(ToolctxError);
    expect(() => budgetCheck({ spentUsd: 0, maxUsd: -1 })).toThrow(ToolctxError);
  });
});
