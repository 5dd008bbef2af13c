import { describe, expect, it } from 'vitest';
import { admitToLedger, type LedgerEntry, LISTING_LAG_MS } from './admission-ledger.js';

const limits = { maxCountPerScope: 2, maxBytesPerScope: 100 };
const now = 1_700_000_000_000;

describe('admitToLedger', () => {
  it('counts an artifact once whether the listing, the ledger or both show it', () => {
    const ledger = new Map<string, LedgerEntry>();
    expect(admitToLedger(ledger, { listed: [], candidate: { ref: 'a', bytes: 10 }, limits, now })).toEqual({
      admitted: true,
    });
    // The listing has caught up with `a`: still one artifact, so `b` fits and `c` does not.
    const listed = [{ ref: 'a', bytes: 10 }];
    expect(admitToLedger(ledger, { listed, candidate: { ref: 'b', bytes: 10 }, limits, now }).admitted).toBe(
      true,
    );
    expect(admitToLedger(ledger, { listed, candidate: { ref: 'c', bytes: 10 }, limits, now })).toEqual({
      admitted: false,
      totals: { count: 2, bytes: 20 },
    });
  });

  it('forgets admissions after the listing lag and once they expire, and never counts expired listings', () => {
    const ledger = new Map<string, LedgerEntry>();
    admitToLedger(ledger, { listed: [], candidate: { ref: 'old', bytes: 60 }, limits, now });
    admitToLedger(ledger, {
      listed: [],
      candidate: { ref: 'brief', bytes: 30, expiresAt: now + 10 },
      limits,
      now,
    });
    const later = now + LISTING_LAG_MS;
    const answer = admitToLedger(ledger, {
      listed: [{ ref: 'gone', bytes: 90, expiresAt: later }],
      candidate: { ref: 'new', bytes: 90 },
      limits,
      now: later,
    });
    expect(answer).toEqual({ admitted: true });
    expect([...ledger.keys()]).toEqual(['new']);
  });

  it('refuses on bytes as well as on count', () => {
    const ledger = new Map<string, LedgerEntry>();
    const listed = [{ ref: 'a', bytes: 95 }];
    expect(admitToLedger(ledger, { listed, candidate: { ref: 'b', bytes: 6 }, limits, now })).toEqual({
      admitted: false,
      totals: { count: 1, bytes: 95 },
    });
    expect(ledger.size).toBe(0);
  });
});
